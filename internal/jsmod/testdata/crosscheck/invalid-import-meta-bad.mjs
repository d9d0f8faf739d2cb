const a = import.metaa;
