// Function core of the sample-notes test package: three local Functions
// over a fixed, fictional note list. Each returns {status, data} or throws an
// error the normalizer turns into {code, message, details, retryable}.

const NOTES = [
  { id: "note-1", title: "Water the sample plants", tag: "home" },
  { id: "note-2", title: "Draft the sample agenda", tag: "work" },
  { id: "note-3", title: "Untagged sample idea", tag: null },
];

function fail(code, message, details, extra = {}) {
  return Object.assign(new Error(message), { code, details, ...extra });
}

export async function listSampleNotes(input) {
  if (input.limit === 13) {
    throw fail("UNLUCKY_LIMIT", "the sample list refuses a limit of 13", { limit: 13 }, { retryable: false });
  }
  const notes = NOTES.filter((n) => input.tag === undefined || n.tag === input.tag);
  return { status: 200, data: { notes: notes.slice(0, input.limit ?? notes.length) } };
}

export async function createSampleNote(input) {
  if (input.title === "reject") {
    throw fail("TITLE_REJECTED", "the sample backend rejects this title", { field: "title" }, { outcomeKnown: true });
  }
  return { status: 201, data: { id: "note-4" } };
}

export async function countSampleNotes(input) {
  if (input.folder === "archive") {
    throw fail("FOLDER_UNAVAILABLE", "the sample archive is not available", { folder: "archive" }, { retryable: true });
  }
  return { status: 200, data: { count: NOTES.length } };
}
