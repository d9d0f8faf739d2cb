with (Math) { cos(1); }
