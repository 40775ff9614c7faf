import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuQuota, defaultWebProcesses } from './cpus.js';

/** A cgroup file system of a test's own: the files a container's CPU limit writes. */
function cgroup(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'paybench-cgroup-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), `${content}\n`);
  }
  return root;
}

describe('the web processes a container may run by default', () => {
  it('are the whole cores its CPU limit allows, on cgroup v2 and v1, at least one', () => {
    expect(cpuQuota(cgroup({ 'cpu.max': '200000 100000' }))).toBe(2);
    expect(cpuQuota(cgroup({ 'cpu.max': '150000 100000' }))).toBe(1);
    expect(cpuQuota(cgroup({ 'cpu.max': '25000 100000' }))).toBe(1);
    expect(cpuQuota(cgroup({ 'cpu/cpu.cfs_quota_us': '400000', 'cpu/cpu.cfs_period_us': '100000' }))).toBe(4);
    expect(cpuQuota(cgroup({ 'cpu,cpuacct/cpu.cfs_quota_us': '300000', 'cpu,cpuacct/cpu.cfs_period_us': '100000' }))).toBe(3);
  });

  it('are every core the process may use when there is no limit', () => {
    expect(cpuQuota(cgroup({ 'cpu.max': 'max 100000' }))).toBeUndefined();
    expect(cpuQuota(cgroup({ 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }))).toBeUndefined();
    expect(cpuQuota(cgroup({}))).toBeUndefined();
    expect(defaultWebProcesses(cgroup({ 'cpu.max': 'max 100000' }))).toBe(availableParallelism());
  });

  it('never exceed the cores, whatever the limit says', () => {
    expect(defaultWebProcesses(cgroup({ 'cpu.max': `${(availableParallelism() + 8) * 100000} 100000` }))).toBe(availableParallelism());
    expect(defaultWebProcesses(cgroup({ 'cpu.max': '100000 100000' }))).toBe(1);
  });
});
