// How many threads serving's decodes may share: the CPUs nothing else was using a moment ago.
// ggml's decode threads wait for each other at a spinning barrier after every graph node, so a decode
// whose thread loses its CPU to another busy thread (a training job's kernels, another process) waits
// out a scheduler slice at each of them: on 2 CPUs at a load average of 6, Qwen2.5-0.5B's 8 answer
// tokens took 22 s on 2 threads against 1.2 s on one. Threads beyond the idle CPUs are never
// faster, so a decode takes more than one only where that many CPUs sat idle.
import os from "node:os";

interface CpuSample {
  ms: number;
  /** Idle time of every CPU together (ms). */
  idleMs: number;
  /** CPU time of this process, every thread (ms). */
  ownMs: number;
}

function sample(): CpuSample {
  const own = process.cpuUsage();
  return { ms: performance.now(), idleMs: os.cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0), ownMs: (own.user + own.system) / 1000 };
}

/** Threads for `idleCpus` idle CPUs of `cpus`: a CPU counts once it is at least 3/4 idle. */
export function threadBudget(cpus: number, idleCpus: number): number {
  return Math.max(1, Math.min(cpus, Math.floor(idleCpus + 0.25)));
}

let shared: IdleCpus | undefined;

/** The process's one reading (it reads the machine, once a second). */
export function idleCpus(): IdleCpus {
  shared ??= new IdleCpus();
  return shared;
}

/** The CPUs serving may take. After it decoded nothing for a while: the CPUs idle meanwhile (this
 *  process's other threads, training jobs', count as busy). After a short pause (back-to-back
 *  requests): the CPUs other processes left over the last second. */
export class IdleCpus {
  /** Pauses shorter than this are too short to read (/proc/stat counts in 10 ms steps). */
  private static readonly MIN_QUIET_MS = 200;
  /** Since when serving has decoded nothing, read up to then; undefined while it decodes. */
  private quietSince: CpuSample | undefined = sample();
  /** CPUs idle while serving decoded nothing, when the pause was long enough to read. */
  private idleWhileQuiet: number | undefined;
  private second = sample();
  private leftByOthers = os.availableParallelism();

  constructor() {
    setInterval(() => {
      const now = sample();
      this.leftByOthers = (now.idleMs - this.second.idleMs + now.ownMs - this.second.ownMs) / (now.ms - this.second.ms);
      this.second = now;
      if (this.quietSince) this.readQuiet(now);
    }, 1000).unref();
  }

  /** Serving decodes nothing from now on. */
  quiet(): void {
    this.quietSince = sample();
    this.idleWhileQuiet = undefined;
  }

  /** Serving starts decoding: the CPUs it may take. */
  busy(): number {
    const now = sample();
    if (this.quietSince && now.ms - this.quietSince.ms >= IdleCpus.MIN_QUIET_MS) this.readQuiet(now);
    this.quietSince = undefined;
    return this.idleWhileQuiet ?? this.leftByOthers;
  }

  private readQuiet(now: CpuSample): void {
    this.idleWhileQuiet = (now.idleMs - this.quietSince!.idleMs) / (now.ms - this.quietSince!.ms);
    this.quietSince = now;
  }
}
