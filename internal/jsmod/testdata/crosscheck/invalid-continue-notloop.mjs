l: { continue l; }
