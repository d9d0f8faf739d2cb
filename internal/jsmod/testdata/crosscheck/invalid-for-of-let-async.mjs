for (async of []) {}
