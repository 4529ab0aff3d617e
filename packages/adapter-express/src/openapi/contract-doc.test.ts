import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problems, routeMessages, type ErrorCode } from '../problems.js';
import { seedKinds } from '@workplan/core';
import { changesDescription } from '../resources.js';
import { openApiDocument } from './document.js';

const seedResources = Object.values(seedKinds);

// docs/contract.md is written for people; this holds it to the error table of the code
// and to the OpenAPI document, so the three cannot drift apart unnoticed.
const contract = readFileSync(new URL('../../../../docs/contract.md', import.meta.url), 'utf8');
interface Response {
  readonly content?: Record<string, { examples?: Record<string, unknown> }>;
}
const document = openApiDocument(seedResources) as {
  info: { description: string };
  paths: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components: { responses: Record<string, Response> };
};

/** The rows `| status | \`CODE\` | when |` of the page's error table. */
const errorRows = [...contract.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gmu)].map(([, status, code]) => ({
  status: Number(status),
  code: code as ErrorCode,
}));

/** Every status under which the document lists `code` as an example of an error answer. */
function statusesInDocument(code: ErrorCode): Set<number> {
  const statuses = new Set<number>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.content?.['application/json']?.examples?.[code] !== undefined) statuses.add(Number(status));
      }
    }
  }
  return statuses;
}

const documentText = JSON.stringify(document);

describe('docs/contract.md', () => {
  it('lists every error code of the error table once, with the status the table gives it', () => {
    expect(errorRows.map((row) => row.code).sort()).toEqual(Object.keys(problems).sort());
    for (const { code, status } of errorRows) expect({ code, status }).toEqual({ code, status: problems[code].status });
  });

  it('and the OpenAPI document answers each code with that same status', () => {
    for (const { code, status } of errorRows) {
      const underOperations = [...statusesInDocument(code)];
      if (underOperations.length > 0) {
        expect(underOperations, code).toEqual([status]);
        continue;
      }
      // The answers of no operation (a path or method no route has) are shared components,
      // whose status the document's introduction states.
      const shared = Object.values(document.components.responses).some((response) => response.content?.['application/json']?.examples?.[code] !== undefined);
      expect(shared, code).toBe(true);
      expect(document.info.description.replace(/\s+/gu, ' ')).toContain(`${status} \`${code}\``);
    }
  });

  it('quotes every message of every operation and route, and the document holds each one it quotes', () => {
    const messages = [
      ...seedResources.flatMap((resource) => Object.values(resource.messages)),
      changesDescription.message,
      ...Object.values(routeMessages),
    ];
    for (const message of messages) expect(contract, message).toContain(`\`${message}\``);
    const quoted = [...contract.matchAll(/`((?:Não foi possível|Rota|Método|Requisição|Serviço)[^`]*\.)`/gu)].map((match) => match[1] ?? '');
    expect(quoted.length).toBe(messages.length);
    for (const message of quoted) expect(documentText, message).toContain(JSON.stringify(message));
  });

  it('names every path of both resources that the document describes', () => {
    expect(contract).toContain(`/api/v1/${changesDescription.path}`);
    expect(document.paths).toHaveProperty([`/api/v1/${changesDescription.path}`]);
    for (const resource of seedResources) {
      expect(contract).toContain(`/api/v1/${resource.singular}/{id}/history`);
      expect(document.paths).toHaveProperty([`/api/v1/${resource.singular}/{id}/history`]);
      expect(contract).toContain(`/api/v1/${resource.singular}/{id}`);
      expect(contract).toContain(`/api/v1/${resource.plural}`);
      expect(document.paths).toHaveProperty([`/api/v1/${resource.singular}/{id}`]);
    }
  });

  it('is what the README links to for the contract', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('](docs/contract.md)');
    expect(readme).not.toMatch(/`CONTRACT\.md`/u);
  });
});
