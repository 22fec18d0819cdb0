/**
 * CPU time over a bench phase: this process (process.cpuUsage, all its threads), other processes by pid
 * (/proc/<pid>/stat utime + stime, all their threads) and the whole machine (/proc/stat), so a phase can
 * be given in microseconds of CPU per uplink per process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICK_US = 1e6 / clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
}

/** User + system CPU of a process in microseconds (0 once it is gone). */
function pidCpuUs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return 0;
  }
}

/** Busy and total CPU of the machine in microseconds (all cores). */
function machineCpuUs(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.slice(0, 8).reduce((sum, n) => sum + n, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) * TICK_US, total: total * TICK_US };
}

function selfCpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

export interface CpuReport {
  wallMs: number;
  /** CPU microseconds per group over the phase. */
  us: Record<string, number>;
  /** Busy CPU of the whole machine (every process, other work included). */
  machineBusyUs: number;
  /** Cores on the machine's clock over the phase (busy / wall). */
  machineCores: number;
}

/** Starts measuring: `self` is this process, `groups` other processes by pid. */
export function startCpu(groups: Record<string, number[]>): () => CpuReport {
  const t0 = performance.now();
  const self0 = selfCpuUs();
  const group0 = Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, pids.map(pidCpuUs)]),
  ) as Record<string, number[]>;
  const machine0 = machineCpuUs();
  return () => {
    const wallMs = performance.now() - t0;
    const us: Record<string, number> = { self: selfCpuUs() - self0 };
    for (const [name, pids] of Object.entries(groups))
      us[name] = pids.reduce((sum, pid, i) => sum + Math.max(0, pidCpuUs(pid) - (group0[name]?.[i] ?? 0)), 0);
    const machine = machineCpuUs();
    const machineBusyUs = machine.busy - machine0.busy;
    const totalUs = machine.total - machine0.total;
    return { wallMs, us, machineBusyUs, machineCores: totalUs > 0 ? machineBusyUs / (wallMs * 1000) : 0 };
  };
}

/** "self 12.3, mosquitto 8.1, ... machine 80.2 us per uplink (1.9 cores busy)" */
export function cpuPerUplinkText(report: CpuReport, uplinks: number, names: Record<string, string>): string {
  const per = (us: number) => (uplinks > 0 ? (us / uplinks).toFixed(1) : '-');
  const parts = Object.entries(report.us).map(([group, us]) => `${names[group] ?? group} ${per(us)}`);
  const measured = Object.values(report.us).reduce((sum, us) => sum + us, 0);
  // The machine's busy time beyond the processes named: other work on the shared cores (and the kernel's).
  const other = Math.max(0, report.machineBusyUs - measured);
  return (
    `${parts.join(', ')}, other processes ${per(other)}; machine ${per(report.machineBusyUs)} us of CPU per uplink ` +
    `(${report.machineCores.toFixed(2)} cores busy)`
  );
}
