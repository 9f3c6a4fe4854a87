// Types of podman.js (plain JavaScript so that bench/ can use it too).
export declare const ROOT: string;
export declare const LOCAL_BASE: string;
export interface PodmanResult {
  code: number | string | null;
  stdout: string;
  stderr: string;
}
export declare function podmanMissing(): string | undefined;
export declare function podman(args: string[], options?: { timeoutMs?: number }): Promise<PodmanResult>;
export declare function podmanOk(args: string[], options?: { timeoutMs?: number }): Promise<string>;
export declare function baseImage(): Promise<string>;
export declare function buildImage(tag: string, base: string): Promise<{ tag: string; label: string; remove(): Promise<void> }>;
export declare function imageSize(name: string): Promise<number>;
export declare function freePort(): Promise<number>;
export declare function untilHealthy(url: string, options?: { timeoutMs?: number; everyMs?: number }): Promise<void>;
