import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * The whole cores a CPU quota allows this process (a container's CPU limit: Kubernetes
 * `resources.limits.cpu`, compose `cpus`), at least 1; undefined when there is no quota. Node's
 * `availableParallelism` counts the cores the process may be scheduled on, which a quota does not
 * reduce. Read from cgroup v2 (`cpu.max`), else v1 (`cpu.cfs_quota_us` over `cpu.cfs_period_us`).
 */
export function cpuQuota(root = '/sys/fs/cgroup'): number | undefined {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(path.join(root, file), 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  let quota = Number.NaN;
  let period = Number.NaN;
  const v2 = read('cpu.max');
  if (v2 !== undefined) {
    const [max = 'max', every = '100000'] = v2.split(/\s+/);
    quota = max === 'max' ? Number.NaN : Number(max);
    period = Number(every);
  } else {
    for (const dir of ['cpu', 'cpu,cpuacct']) {
      const v1 = read(`${dir}/cpu.cfs_quota_us`);
      if (v1 === undefined) continue;
      quota = Number(v1);
      period = Number(read(`${dir}/cpu.cfs_period_us`));
      break;
    }
  }
  if (!(quota > 0) || !(period > 0)) return undefined;
  return Math.max(1, Math.floor(quota / period));
}

/** `PAYBENCH_WEB_PROCESSES` when unset: one per core this process may use, within its CPU quota. */
export function defaultWebProcesses(root?: string): number {
  const cores = availableParallelism();
  const quota = cpuQuota(root);
  return quota === undefined ? cores : Math.min(cores, quota);
}
