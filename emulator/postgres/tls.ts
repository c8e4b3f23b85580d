/**
 * The servers' TLS certificate: one self-signed certificate (EC P-256, ten years, for
 * `127.0.0.1` and `localhost`) made with `openssl` once per directory and shared by every
 * server. The contract's clients connect with `sslmode=require`, which encrypts without
 * verifying the certificate.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import type { PostgresBinaries } from "./binaries";
import { runTool } from "./run-tool";
import { handOver, type ServerAccount } from "./server-account";

/** The certificate and key files. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/**
 * The certificate in `dir`, made when missing. The key is readable by the server account
 * only (PostgreSQL refuses a key others can read).
 * @throws PostgresError (`tls`) when `openssl` fails
 */
export async function ensureCertificate(dir: string, binaries: PostgresBinaries, account: ServerAccount): Promise<TlsFiles> {
  const files = { certFile: path.join(dir, "server.crt"), keyFile: path.join(dir, "server.key") };
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return files;
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = { cert: `${files.certFile}.tmp`, key: `${files.keyFile}.tmp` };
  await runTool("tls", binaries.openssl, [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    tmp.key,
    "-out",
    tmp.cert,
    "-days",
    "3650",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
  ]);
  await fs.chmod(tmp.key, 0o600);
  await fs.chmod(tmp.cert, 0o644);
  for (const file of [dir, tmp.key, tmp.cert]) await handOver(account, file);
  await fs.rename(tmp.key, files.keyFile);
  await fs.rename(tmp.cert, files.certFile);
  return files;
}
