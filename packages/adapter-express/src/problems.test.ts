import { PassThrough } from 'node:stream';
import { MAX_TEXT_LENGTH } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { answerClientError, type ClientError } from './client-error.js';
import { problemJson } from './envelope.js';
import { BODY_LIMIT_BYTES, issueMessages, problems } from './problems.js';

// The sentences name limits defined elsewhere; these pin the bytes clients have always read.
describe('the sentences that name a limit', () => {
  it('say the body limit of the 413 as the service always has, 16 KiB', () => {
    expect(BODY_LIMIT_BYTES).toBe(16_384);
    expect(problems.PAYLOAD_TOO_LARGE.detail).toBe('O corpo da requisição passa de 16 KiB.');
  });

  it('say the longest text a field may hold as the service always has, 200 characters', () => {
    expect(MAX_TEXT_LENGTH).toBe(200);
    expect(issueMessages.tooLong).toBe('Deve ter no máximo 200 caracteres.');
  });
});

describe('the body of a failure', () => {
  it('is the contract envelope, with the members of the problem under error', () => {
    expect(JSON.parse(problemJson('CONFLICT', 'Não foi possível criar a escala de trabalho.', 'r-1', { existingId: 'a' }))).toStrictEqual({
      success: false,
      message: 'Não foi possível criar a escala de trabalho.',
      error: { code: 'CONFLICT', detail: problems.CONFLICT.detail, requestId: 'r-1', existingId: 'a' },
    });
  });

  it('is the same when Node refused the request before Express saw it', async () => {
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    const ended = new Promise((resolve) => socket.on('end', resolve));
    const error: ClientError = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from('BREW / HTTP/1.1\r\n') });
    const answered = answerClientError(error, socket, false);
    await ended;
    const body = Buffer.concat(written).toString('utf8').split('\r\n\r\n')[1];
    expect(body).toBe(problemJson('BAD_REQUEST', 'Requisição inválida.', answered?.requestId ?? ''));
  });
});
