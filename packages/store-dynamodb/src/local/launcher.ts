/**
 * Runs AWS's DynamoDB Local (the jar that the npm package `amplify-dynamodb-simulator` ships) as a
 * child process: in memory for tests, with a data folder for local dev. Real DynamoDB semantics
 * (conditions, transactions, indexes), no mock.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, type DynamoDBClientConfig, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export class DynamoDbLocalError extends Error {
  override readonly name = 'DynamoDbLocalError';
}

export interface DynamoDbLocalJar {
  emulatorDir: string;
  jar: string;
  libDir: string;
}

/** Where the installed `amplify-dynamodb-simulator` keeps DynamoDBLocal.jar (resolved, not hard-coded). */
export function findDynamoDbLocalJar(): DynamoDbLocalJar {
  const require = createRequire(import.meta.url);
  let packageJson: string;
  try {
    packageJson = require.resolve('amplify-dynamodb-simulator/package.json');
  } catch {
    throw new DynamoDbLocalError(
      'amplify-dynamodb-simulator is not installed (it ships DynamoDBLocal.jar); run `npx --yes pnpm@12.4.2 install` at the repo root',
    );
  }
  const emulatorDir = join(dirname(packageJson), 'emulator');
  const jar = join(emulatorDir, 'DynamoDBLocal.jar');
  if (!existsSync(jar)) throw new DynamoDbLocalError(`DynamoDBLocal.jar not found at ${jar}`);
  return { emulatorDir, jar, libDir: join(emulatorDir, 'DynamoDBLocal_lib') };
}

const INSTALL_JAVA =
  'DynamoDB Local needs Java 17 or newer: install a Java 17 runtime (e.g. `apt-get install openjdk-17-jre-headless`, ' +
  '`brew install openjdk@17`, or Temurin 17 from adoptium.net) and make sure `java` is on PATH or JAVA_HOME is set.';

/** The java binary: $JAVA_HOME/bin/java when set, else `java` from PATH. */
export function javaBinary(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.JAVA_HOME;
  if (home) {
    const bin = join(home, 'bin', process.platform === 'win32' ? 'java.exe' : 'java');
    if (existsSync(bin)) return bin;
  }
  return 'java';
}

/** Checks that Java 17+ is there; throws a DynamoDbLocalError saying what to install otherwise. */
export function checkJava(java = javaBinary()): number {
  const probe = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new DynamoDbLocalError(
      `Java was not found (${probe.error?.message ?? `exit ${probe.status}`}). ${INSTALL_JAVA}`,
    );
  }
  // `java -version` prints e.g. `openjdk version "17.0.15"` or `java version "1.8.0_381"` on stderr.
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : Number.NaN;
  if (!(major >= 17)) {
    throw new DynamoDbLocalError(
      `Java ${Number.isNaN(major) ? '(unknown version)' : major} found. ${INSTALL_JAVA}`,
    );
  }
  return major;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Client settings for DynamoDB Local (any credentials are accepted; `-sharedDb` ignores them). */
export const localClientConfig = (endpoint: string): DynamoDBClientConfig => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  maxAttempts: 3,
});

export interface StartOptions {
  /** A data folder (local dev): the database survives restarts. Default: in memory. */
  dbPath?: string;
  port?: number;
  /** How long to wait for the first answer. Default 120 s: the JVM can take over 30 s to start on a busy 2-core machine. */
  startTimeoutMs?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local and resolves once it answers a ListTables. Kills it if this process exits. */
export async function startDynamoDbLocal(options: StartOptions = {}): Promise<DynamoDbLocal> {
  const java = javaBinary();
  checkJava(java);
  const { jar, libDir, emulatorDir } = findDynamoDbLocalJar();
  const port = options.port ?? (await freePort());
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  // -sharedDb: one database whatever the client's credentials and region (tests, dev and the local
  // server all see the same tables). -disableTelemetry: no network calls from tests.
  const args = [
    `-Djava.library.path=${libDir}`,
    '-jar',
    jar,
    ...storage,
    '-sharedDb',
    '-disableTelemetry',
    '-port',
    String(port),
  ];
  const child = spawn(java, args, { cwd: emulatorDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(child, endpoint, options.startTimeoutMs ?? 120_000, () => output);
  } catch (error) {
    process.removeListener('exit', killOnExit);
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    port,
    pid: child.pid,
    stop: () => {
      process.removeListener('exit', killOnExit);
      return stopChild(child);
    },
  };
}

async function waitUntilAnswering(
  child: ChildProcess,
  endpoint: string,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const client = new DynamoDBClient({ ...localClientConfig(endpoint), maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) {
        throw new DynamoDbLocalError(`DynamoDB Local exited with code ${child.exitCode}:\n${output()}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        if (Date.now() > deadline) {
          throw new DynamoDbLocalError(
            `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms:\n${output()}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
