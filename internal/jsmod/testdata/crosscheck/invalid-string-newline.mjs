const s = "abc
def";
