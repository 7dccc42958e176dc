import type { CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { PuntoYBancaStack } from '../src/stack';

// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
type Json = any;

/**
 * The stage as one template: the stack's resources and those of its nested stacks (function-stacks.ts),
 * with each reference across them replaced by what it stands for — a nested stack's parameter by the
 * value the parent passes it, a parent's `Fn::GetAtt` of a nested output by that output's value — so the
 * assertions read "role X may do Y on table Z" wherever the role and the table are deployed. Logical ids
 * are unique across the templates (asserted), so the merged map is unambiguous. Call after `app.synth()`.
 */
export function appTemplate(stack: PuntoYBancaStack): Template {
  const parent = Template.fromStack(stack).toJSON();
  const resources: Record<string, Json> = { ...parent.Resources };
  const outputs = new Map<string, Json>(); // `${nested logical id}.Outputs.${name}` -> value
  const nestedIds = new Set<string>();
  for (const nested of Object.values(stack.functionStacks)) {
    const id = stack.resolve((nested.nestedStackResource as CfnResource).logicalId) as string;
    nestedIds.add(id);
    const json = Template.fromStack(nested).toJSON();
    const passed: Record<string, Json> = resources[id].Properties?.Parameters ?? {};
    const own = (value: Json): Json => substitute(value, (ref) => (ref in passed ? passed[ref] : undefined));
    for (const [name, output] of Object.entries<Json>(json.Outputs ?? {})) {
      outputs.set(`${id}.Outputs.${name}`, own(output.Value));
    }
    for (const [logical, resource] of Object.entries<Json>(json.Resources)) {
      if (resources[logical])
        throw new Error(`logical id ${logical} in two stacks: appTemplate cannot merge`);
      resources[logical] = own(resource);
    }
  }
  const merged = substituteOutputs({ ...parent, Resources: resources }, outputs, nestedIds);
  return Template.fromJSON(merged, { skipCyclicalDependenciesCheck: true });
}

/** Every resource of the stage, merged as appTemplate does. */
export function appResources(stack: PuntoYBancaStack): Record<string, Json> {
  return appTemplate(stack).toJSON().Resources;
}

/**
 * Each synthesised template of the stage by stack: its own (by stack name) and each nested stack's (by
 * construct id, `RoundsFunctions`). Read them right after the synth: the CDK reads a template from the
 * outdir, which the next synth of the same stage into it overwrites.
 */
export function stackTemplates(stack: PuntoYBancaStack): Record<string, Json> {
  const json = (s: Stack) => Template.fromStack(s).toJSON();
  return Object.fromEntries([
    [stack.stackName, json(stack)],
    ...Object.values(stack.functionStacks).map((n) => [n.node.id, json(n)]),
  ]);
}

/** Resources per synthesised template of the stage (stackTemplates). */
export function resourceCounts(stack: PuntoYBancaStack): Record<string, number> {
  return Object.fromEntries(
    Object.entries(stackTemplates(stack)).map(([name, t]) => [name, Object.keys(t.Resources).length]),
  );
}

/** Replaces `{ Ref: name }` by `lookup(name)` where it answers. */
function substitute(value: Json, lookup: (ref: string) => Json): Json {
  if (Array.isArray(value)) return value.map((v) => substitute(v, lookup));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'Ref') {
    const found = lookup(value.Ref);
    if (found !== undefined) return structuredClone(found);
  }
  return Object.fromEntries(keys.map((k) => [k, substitute(value[k], lookup)]));
}

/** Replaces `{ Fn::GetAtt: [nestedStack, 'Outputs.X'] }` by the output's value (through the parent's parameters). */
function substituteOutputs(value: Json, outputs: Map<string, Json>, nestedIds: Set<string>): Json {
  if (Array.isArray(value)) return value.map((v) => substituteOutputs(v, outputs, nestedIds));
  if (value === null || typeof value !== 'object') return value;
  const att = value['Fn::GetAtt'];
  if (Array.isArray(att) && nestedIds.has(att[0])) {
    const found = outputs.get(`${att[0]}.${att[1]}`);
    if (found === undefined) throw new Error(`no output ${att[1]} of ${att[0]}`);
    return substituteOutputs(structuredClone(found), outputs, nestedIds);
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, substituteOutputs(v, outputs, nestedIds)]),
  );
}
