try { f() } catch { } export {};
