export { nothere };
