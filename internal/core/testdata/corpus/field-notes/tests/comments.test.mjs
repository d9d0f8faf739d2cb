import assert from 'node:assert/strict';
import { test } from 'node:test';

import { addComment, editComment, deleteComment, DRY_RUN, MissingInputError, PrecheckError } from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, json, recordingFetch, routedFetch, secrets } from './helpers.mjs';

const me = [200, '{"data":{"username":"mossgazer"}}'];
const mine = [200, '{"data":{"id":7,"body":"First!","author":{"username":"mossgazer"}}}'];
const theirs = [200, '{"data":{"id":8,"body":"Nice","author":{"username":"fernwatch"}}}'];

test('add_comment sends the text in the envelope the service reads', async () => {
  const { fetch, requests } = recordingFetch(201, '{"data":{"id":9}}');
  const result = await addComment({ slug: 'spring-lichens', body: ' Lovely photos ' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url]), [['POST', 'https://notes.invalid/api/notes/spring-lichens/comments']]);
  assert.deepEqual(json(requests[0]), { comment: { body: 'Lovely photos' } });
  assert.deepEqual(result, { httpStatus: 201, bodyText: '{"data":{"id":9}}' });
});

test('add_comment passes a refusal through', async () => {
  const { fetch } = recordingFetch(422, '{"errors":{"body":["is too long"]}}');
  assert.deepEqual(await addComment({ slug: 'a', body: 'x' }, contextWith(fetch)), { httpStatus: 422, bodyText: '{"errors":{"body":["is too long"]}}' });
  await assert.rejects(addComment({ slug: 'a', body: '  ' }, contextWith(forbiddenFetch)), MissingInputError);
});

test('edit_comment reads the comment and the user, then changes the user\'s own comment', async () => {
  const { fetch, requests } = routedFetch({
    'GET notes/spring-lichens/comments/7': mine,
    'GET user': me,
    'PUT notes/spring-lichens/comments/7': [200, '{"data":{"id":7,"body":"Edited"}}'],
  });
  const result = await editComment({ slug: 'spring-lichens', commentId: 7, body: 'Edited' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => `${r.method} ${r.url}`), [
    'GET https://notes.invalid/api/notes/spring-lichens/comments/7',
    'GET https://notes.invalid/api/user',
    'PUT https://notes.invalid/api/notes/spring-lichens/comments/7',
  ]);
  assert.deepEqual(json(requests[2]), { comment: { body: 'Edited' } });
  assert.deepEqual(result, { httpStatus: 200, bodyText: '{"data":{"id":7,"body":"Edited"}}' });
});

test('edit_comment refuses someone else\'s comment and writes nothing', async () => {
  const { fetch, requests } = routedFetch({ 'GET notes/a/comments/8': theirs, 'GET user': me });
  await assert.rejects(editComment({ slug: 'a', commentId: 8, body: 'Mine now' }, contextWith(fetch)),
    (error) => error instanceof PrecheckError && error.message === "the comment must be the user's own");
  assert.ok(requests.every((r) => r.method === 'GET'));
});

test('delete_comment deletes the user\'s own comment and passes the 204 through', async () => {
  const { fetch, requests } = routedFetch({ 'GET notes/a/comments/7': mine, 'GET user': me, 'DELETE notes/a/comments/7': [204, ''] });
  assert.deepEqual(await deleteComment({ slug: 'a', commentId: '7' }, contextWith(fetch)), { httpStatus: 204, bodyText: '' });
  assert.equal(requests.at(-1).method, 'DELETE');
});

test('delete_comment passes the service\'s 404 for the comment through', async () => {
  const { fetch, requests } = routedFetch({ 'GET notes/a/comments/70': [404, '{"errors":{"comment":["not found"]}}'] });
  assert.deepEqual(await deleteComment({ slug: 'a', commentId: 70 }, contextWith(fetch)), { httpStatus: 404, bodyText: '{"errors":{"comment":["not found"]}}' });
  assert.equal(requests.length, 1);
});

test('delete_comment refuses someone else\'s comment', async () => {
  const { fetch } = routedFetch({ 'GET notes/a/comments/8': theirs, 'GET user': me });
  await assert.rejects(deleteComment({ slug: 'a', commentId: 8 }, contextWith(fetch)), PrecheckError);
});

test('a dry run of a comment change sends nothing, the reads neither, and names the check', async () => {
  const context = contextWith(forbiddenFetch, { env: { ...env, [DRY_RUN]: '1' } });
  const result = await deleteComment({ slug: 'a', commentId: 7 }, context);
  assert.deepEqual(result, {
    dryRun: true,
    request: { method: 'DELETE', url: 'https://notes.invalid/api/notes/a/comments/7', headers: { accept: 'application/json', authorization: '[credential, not shown]' }, body: undefined },
    checksNotRun: ["the comment is the user's own"],
  });
  const edit = await editComment({ slug: 'a', commentId: 7, body: 'x' }, context);
  assert.equal(edit.dryRun, true);
  assert.ok(!JSON.stringify([result, edit]).includes(secrets[0]));
  const add = await addComment({ slug: 'a', body: 'x' }, context);
  assert.equal(add.dryRun, true);
});
