outer: for (const a of [1]) { for (const b of [2]) { continue outer; } } export {};
