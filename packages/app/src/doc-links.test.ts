import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README sends readers to docs/ for everything it no longer says itself, so a link
// that points nowhere loses them a section. This follows every relative link.

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The Markdown pages a reader moves between: the README, docs/ and every package's README. */
function pages(): string[] {
  const inDocs = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return inDocs(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  const packageReadmes = readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((path) => existsSync(join(root, path)));
  return ['README.md', 'scripts/README.md', ...inDocs('docs'), ...packageReadmes];
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gmu)].map((match) => match[1] ?? '');
  return new Set(headings.map((heading) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-')));
}

/** The text outside fenced code blocks, where a `[x](y)` is code, not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gmu, '');
}

/** Every relative link of a page: its target file (from the repository's root) and anchor. */
function linksOf(page: string): { target: string; anchor: string | undefined }[] {
  const text = withoutCode(readFileSync(join(root, page), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/gu)]
    .map((match) => match[1] ?? '')
    .filter((href) => !/^[a-z]+:/u.test(href))
    .map((href) => {
      const [path = '', anchor] = href.split('#');
      return { target: path === '' ? page : relative(root, join(root, dirname(page), path)), anchor };
    });
}

describe('the links between the README, docs/ and the package READMEs', () => {
  it('are found', () => {
    expect(linksOf('README.md').map((link) => link.target)).toEqual(
      expect.arrayContaining(['docs/contract.md', 'docs/operations.md', 'docs/storage.md', 'docs/development.md']),
    );
  });

  it.each(pages())('of %s point at files and headings that exist', (page) => {
    for (const { target, anchor } of linksOf(page)) {
      expect(existsSync(join(root, target)), `${page} links to ${target}`).toBe(true);
      if (anchor !== undefined && target.endsWith('.md')) {
        expect([...anchorsOf(readFileSync(join(root, target), 'utf8'))], `${page} links to ${target}#${anchor}`).toContain(anchor);
      }
    }
  });
});
