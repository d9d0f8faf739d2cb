const t = new.target;
