for (;;) { break nolabel; }
