import assert from 'node:assert/strict';
import { test } from 'node:test';

import { listProjects, searchTasks, createTask, updateTask, deleteTask, DRY_RUN, MissingInputError } from '../function-core/index.mjs';
import { contextWith, env, forbiddenFetch, json, recordingFetch, secrets, unreachableFetch } from './helpers.mjs';

test('list_projects pages as the web client does', async () => {
  const { fetch, requests } = recordingFetch(200, '{"items":[],"page":2,"pages":3}');
  const result = await listProjects({ page: 2, perPage: '50' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url, r.headers.authorization]), [['GET', 'https://api.invalid/projects?page=2&per_page=50', 'Bearer token-1']]);
  assert.deepEqual(result, { httpStatus: 200, bodyText: '{"items":[],"page":2,"pages":3}' });
});

test('search_tasks posts the search the API reads', async () => {
  const { fetch, requests } = recordingFetch(200, '{"items":[]}');
  await searchTasks({ query: ' fence ', status: 'todo' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url]), [['POST', 'https://api.invalid/tasks/search']]);
  assert.deepEqual(json(requests[0]), { query: 'fence', status: 'todo' });
});

test('create_task sends the task to its project', async () => {
  const { fetch, requests } = recordingFetch(201, '{"id":41}');
  const result = await createTask({ projectId: 3, title: 'Mend the fence', dueDate: '2026-05-01', assigneeId: 12 }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url]), [['POST', 'https://api.invalid/projects/3/tasks']]);
  assert.deepEqual(json(requests[0]), { title: 'Mend the fence', due_date: '2026-05-01', assignee_id: '12' });
  assert.deepEqual(result, { httpStatus: 201, bodyText: '{"id":41}' });
  await assert.rejects(createTask({ projectId: 3 }, contextWith(forbiddenFetch)), MissingInputError);
});

test('a refused field is passed through as the API\'s 422', async () => {
  const { fetch } = recordingFetch(422, '{"errors":{"due_date":["must not be in the past"]}}');
  assert.deepEqual(await createTask({ projectId: 3, title: 'x', dueDate: '2020-01-01' }, contextWith(fetch)),
    { httpStatus: 422, bodyText: '{"errors":{"due_date":["must not be in the past"]}}' });
});

test('update_task sends only what changes, and passes a 409 through', async () => {
  const { fetch, requests } = recordingFetch(409, '{"error":"changed meanwhile"}');
  const result = await updateTask({ taskId: 41, status: 'done' }, contextWith(fetch));
  assert.deepEqual(requests.map((r) => [r.method, r.url]), [['PATCH', 'https://api.invalid/tasks/41']]);
  assert.deepEqual(json(requests[0]), { status: 'done' });
  assert.deepEqual(result, { httpStatus: 409, bodyText: '{"error":"changed meanwhile"}' });
});

test('delete_task passes the 204 through', async () => {
  const { fetch, requests } = recordingFetch(204);
  assert.deepEqual(await deleteTask({ taskId: 41 }, contextWith(fetch)), { httpStatus: 204, bodyText: '' });
  assert.deepEqual(requests.map((r) => [r.method, r.url]), [['DELETE', 'https://api.invalid/tasks/41']]);
});

test('writes under dry-run send nothing, the login neither', async () => {
  const context = contextWith(forbiddenFetch, { env: { ...env, [DRY_RUN]: '1' } });
  const results = [
    await createTask({ projectId: 3, title: 'x' }, context),
    await updateTask({ taskId: 41, status: 'done' }, context),
    await deleteTask({ taskId: 41 }, context),
  ];
  assert.ok(results.every((r) => r.dryRun === true));
  assert.ok(!secrets.some((s) => JSON.stringify(results).includes(s)));
});

test('a failure without response propagates', async () => {
  await assert.rejects(deleteTask({ taskId: 41 }, contextWith(unreachableFetch)), { message: 'fetch failed' });
});
