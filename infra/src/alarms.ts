import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

export interface AlarmOnProps {
  description: string;
  metric: cloudwatch.IMetric;
  /** 1 unless told: the first occurrence alarms. */
  threshold?: number;
  /** At or above the threshold unless told. */
  comparisonOperator?: cloudwatch.ComparisonOperator;
  /** 1 unless told. */
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  /** Where it notifies; left out where the caller wires the action (stack.ts sends every alarm to one topic). */
  action?: cloudwatch.IAlarmAction;
}

/**
 * The one way an alarm is made here: no data is not a breach (a quiet metric is a healthy one), and by
 * default a single datapoint at or above 1 raises it.
 */
export function alarmOn(scope: Construct, id: string, props: AlarmOnProps): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    alarmDescription: props.description,
    metric: props.metric,
    threshold: props.threshold ?? 1,
    evaluationPeriods: props.evaluationPeriods ?? 1,
    datapointsToAlarm: props.datapointsToAlarm,
    comparisonOperator:
      props.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  if (props.action) alarm.addAlarmAction(props.action);
  return alarm;
}
