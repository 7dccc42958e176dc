/**
 * The tier rule of vitest.config.ts, as docs/testing.md ("Which tier a file is in") states it and with
 * its commands: every test file is in a tier, a file's name or folder alone says which.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');

// A shuffled run (PYB_TEST_SEQUENCE_SEED) lists its files shuffled: the lists are compared sorted.
const listed = async (project: string): Promise<string[]> => {
  const { stdout } = await run(
    join(ROOT, 'node_modules/.bin/vitest'),
    ['list', '--project', project, '--filesOnly'],
    { cwd: ROOT },
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^\[[a-z]+\] /, ''))
    .sort();
};

const onDynamoDbOnly = (file: string) => /\.dynamodb\.test\.ts$|^(test\/e2e|infra\/test)\//.test(file);
const onBothStores = (file: string) =>
  /^test\/(integration|model)\//.test(file) && !/\.(memory|dynamodb)\.test\.ts$/.test(file);

let files: string[];
let fast: string[];
let dynamodb: string[];

beforeAll(async () => {
  const { stdout } = await run(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '*.test.ts'],
    { cwd: ROOT },
  );
  files = stdout.split('\n').filter(Boolean).sort();
  fast = await listed('fast');
  dynamodb = await listed('dynamodb');
});

describe('the test tiers', () => {
  it('lists every test file of the repository in a tier', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !fast.includes(f) && !dynamodb.includes(f))).toEqual([]);
  });

  it('puts on DynamoDB Local the files named *.dynamodb.test.ts or under test/e2e/ or infra/test/, and only them with those under test/integration/ and test/model/', () => {
    expect(dynamodb).toEqual(files.filter((f) => onDynamoDbOnly(f) || onBothStores(f)));
  });

  it('runs every other file fast, those of test/integration/ and test/model/ on both stores', () => {
    expect(fast).toEqual(files.filter((f) => !onDynamoDbOnly(f)));
    expect(fast.filter((f) => dynamodb.includes(f))).toEqual(files.filter(onBothStores));
  });
});
