const r = /a/gg;
