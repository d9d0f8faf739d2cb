import data from "./d.json" with { type: "json" };
export default data;
