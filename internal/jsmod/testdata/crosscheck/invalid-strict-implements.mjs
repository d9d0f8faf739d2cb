const implements = 1;
