"use strict"; export const a = 1;
