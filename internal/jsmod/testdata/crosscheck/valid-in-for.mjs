for (const k in {}) {} for (let i = 0, n = ("a" in {}) ? 1 : 0; i < n; i++) {} export {};
