#!/usr/bin/env node
// Entry of `cdk synth` / `cdk deploy` (cdk.json at the repo root runs it with tsx).
import { buildApp } from '../src/app';

buildApp().app.synth();
