import assert from 'node:assert/strict';
import { test } from 'node:test';

import { listNotes, listFeed, listComments, NOTES_BASE_URL, MissingConfigurationError, MissingInputError } from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, recordingFetch, unreachableFetch } from './helpers.mjs';

const page = '{"data":[{"slug":"spring-lichens","title":"Spring lichens"}],"pagination":{"after":"eyJpZCI6MTB9","has_more":true}}';

test('list_notes sends the filters and the cursor as the web client does', async () => {
  const { fetch, requests } = recordingFetch(200, page);
  const result = await listNotes({ author: ' mossgazer ', tag: 'lichens', after: 'eyJpZCI6MTB9', limit: 10 }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url, r.body]), [
    ['GET', 'https://notes.invalid/api/notes?author=mossgazer&tag=lichens&after=eyJpZCI6MTB9&limit=10', undefined],
  ]);
  assert.deepEqual(result, { httpStatus: 200, bodyText: page });
});

test('list_notes leaves out what was not given', async () => {
  const { fetch, requests } = recordingFetch();
  await listNotes({ author: null, after: '' }, contextWith(fetch));
  await listNotes(undefined, contextWith(fetch));
  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/notes', 'https://notes.invalid/api/notes']);
});

test('list_feed follows the cursor', async () => {
  const { fetch, requests } = recordingFetch(200, page);
  assert.deepEqual(await listFeed({ after: 'eyJpZCI6MTB9' }, contextWith(fetch)), { httpStatus: 200, bodyText: page });
  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/notes/feed?after=eyJpZCI6MTB9']);
});

test('list_comments reads one note\'s comments, page by page', async () => {
  const { fetch, requests } = recordingFetch(200, page);
  await listComments({ slug: 'spring lichens', after: 'eyJpZCI6MTB9' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/notes/spring%20lichens/comments?after=eyJpZCI6MTB9']);
  await assert.rejects(listComments({ slug: ' ' }, contextWith(forbiddenFetch)), MissingInputError);
});

test('an error status is passed through unchanged', async () => {
  const { fetch } = recordingFetch(401, '{"errors":{"token":["is expired"]}}');
  assert.deepEqual(await listFeed({}, contextWith(fetch)), { httpStatus: 401, bodyText: '{"errors":{"token":["is expired"]}}' });
});

test('a missing base URL stops before any request', async () => {
  await assert.rejects(listNotes({}, contextWith(forbiddenFetch, { env: { ...env, [NOTES_BASE_URL]: '' } })), MissingConfigurationError);
});

test('a failure without response propagates', async () => {
  await assert.rejects(listNotes({}, contextWith(unreachableFetch)), { message: 'fetch failed' });
});
