import { CiError, type CiErrorData, type UnavailableReason } from './errors.js';

const REASON_BY_CODE: Record<string, UnavailableReason> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect_timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ENOTFOUND: 'network',
  EAI_AGAIN: 'network',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
};

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return codeOf((error as { cause?: unknown }).cause);
}

function isTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError') return true;
  return isTimeout((error as { cause?: unknown }).cause);
}

/** Maps a thrown transport failure (undici error, abort by our timeout signal) to `unavailable`. */
export function errorFromTransport(error: unknown, base: CiErrorData): CiError {
  if (error instanceof CiError) return error;
  const code = codeOf(error);
  const reason: UnavailableReason = isTimeout(error)
    ? 'timeout'
    : ((code ? REASON_BY_CODE[code] : undefined) ?? 'network');
  const words: Record<UnavailableReason, string> = {
    timeout: 'did not answer in time',
    connect_timeout: 'could not be reached in time',
    refused: 'refused the connection',
    reset: 'dropped the connection',
    network: 'could not be reached',
    server_error: 'failed',
  };
  return new CiError('unavailable', `The CI service ${words[reason]}`, { ...base, reason }, { cause: error });
}
