import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";

/** A child process with its output kept for error messages (the last 64 KB). */
export interface Child {
  process: ChildProcess;
  output: () => string;
}

export function start(command: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(command, args, { env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return { process: child, output: () => output };
}

/** Runs a command to the end; throws with its output when it fails. */
export async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = start(command, args, env);
  const [code] = (await once(child.process, "exit")) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}:\n${child.output()}`);
  return child.output();
}

export async function stop(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, "exit");
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers (any status) or the child dies. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`server exited with ${child.process.exitCode}:\n${child.output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${child.output()}`);
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // the process is gone
  }
}

/** The process and all its descendants (a server may fork workers). */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let index = 0; index < pids.length; index++) {
    try {
      const children = readFileSync(`/proc/${pids[index]}/task/${pids[index]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export function treeRssKb(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + statusKb(each, "VmRSS"), 0);
}

/**
 * Samples the resident memory of a process tree every `intervalMs` while `work` runs. Each
 * process's high-water mark is reset first (clear_refs 5) and read at the end, so a spike
 * between two samples still counts. Returns the work's result, the RSS before and the peak, in MB.
 */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>, intervalMs = 50) {
  const pids = processTree(pid);
  for (const each of pids) {
    try {
      writeFileSync(`/proc/${each}/clear_refs`, "5");
    } catch {
      // not permitted here: the samples alone decide
    }
  }
  const beforeKb = treeRssKb(pid);
  let peakKb = beforeKb;
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, treeRssKb(pid));
  }, intervalMs);
  try {
    const result = await work();
    const highWaterKb = pids.reduce((sum, each) => sum + statusKb(each, "VmHWM"), 0);
    peakKb = Math.max(peakKb, highWaterKb, treeRssKb(pid));
    return { result, beforeMb: beforeKb / 1024, peakMb: peakKb / 1024 };
  } finally {
    clearInterval(timer);
  }
}
