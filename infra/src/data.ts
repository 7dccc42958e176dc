import {
  type KeyAttribute,
  LOGICAL_TABLES,
  type LogicalTable,
  TABLES,
  type TableDefinition,
  tableNames,
} from '@pyb/store-dynamodb/tables';
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/** Point-in-time recovery window of the retained tables: DynamoDB's maximum. */
export const PITR_DAYS = 35;

/** A deployed table and the names of its secondary indexes (granted one by one, never `index/*`). */
export interface DeployedTable {
  readonly table: dynamodb.Table;
  readonly tableArn: string;
  readonly tableName: string;
  readonly indexNames: readonly string[];
  /** Data kept for years (tables.ts `retained`): backed up by the retention plan. */
  readonly retained: boolean;
}

const attribute = (a: KeyAttribute): dynamodb.Attribute => ({
  name: a.name,
  type: a.type === 'N' ? dynamodb.AttributeType.NUMBER : dynamodb.AttributeType.STRING,
});

/**
 * The tables of packages/store-dynamodb/src/tables.ts — the same definitions DynamoDB Local is
 * created from, so keys and indexes cannot drift between local and deployed. On-demand billing.
 * Tables whose definition says `retained` (game, wallets, audit, principals: money, game recall, keys)
 * get point-in-time recovery, deletion protection and survive stack deletion; the others are
 * disposable by definition.
 */
export class DataTables extends Construct {
  readonly tables: Record<LogicalTable, DeployedTable>;

  constructor(
    scope: Construct,
    id: string,
    props: {
      namePrefix: string;
      /** Tables that publish a DynamoDB stream, and what it carries (the archiver reads the game table's). */
      streams?: Partial<Record<LogicalTable, dynamodb.StreamViewType>>;
    },
  ) {
    super(scope, id);
    const names = tableNames(props.namePrefix);
    const build = (def: TableDefinition): DeployedTable => {
      const table = new dynamodb.Table(this, pascal(def.logical), {
        tableName: names[def.logical],
        partitionKey: attribute(def.partitionKey),
        ...(def.sortKey && { sortKey: attribute(def.sortKey) }),
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        // PITR: any second of the last 35 days (its maximum) restores; AWS Backup keeps the years.
        pointInTimeRecoverySpecification: def.retained
          ? { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: PITR_DAYS }
          : { pointInTimeRecoveryEnabled: false },
        ...(props.streams?.[def.logical] && { stream: props.streams[def.logical] }),
        deletionProtection: def.retained,
        removalPolicy: def.retained ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
        ...(def.ttlAttribute && { timeToLiveAttribute: def.ttlAttribute }),
      });
      for (const index of def.globalIndexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          sortKey: attribute(index.sortKey),
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
      for (const index of def.localIndexes) {
        table.addLocalSecondaryIndex({
          indexName: index.name,
          sortKey: attribute(index.sortKey),
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
      if (!def.retained) {
        if (def.ttlAttribute === undefined) {
          throw new Error(`table '${def.logical}' is neither retained nor expiring: decide its backups`);
        }
        acknowledge(
          table,
          'AwsSolutions-DDB3',
          `The ${def.logical} table holds only short-lived records that expire by TTL ` +
            `(${def.ttlAttribute}); restoring it to an earlier second would resurrect released ` +
            'keys, so point-in-time recovery would be a liability, not a backup.',
        );
      }
      return {
        table,
        tableArn: table.tableArn,
        tableName: table.tableName,
        indexNames: [...def.globalIndexes, ...def.localIndexes].map((i) => i.name),
        retained: def.retained,
      };
    };
    this.tables = Object.fromEntries(LOGICAL_TABLES.map((t) => [t, build(TABLES[t])])) as Record<
      LogicalTable,
      DeployedTable
    >;
  }
}

/** `idempotency` -> `Idempotency` (construct ids). */
export function pascal(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
