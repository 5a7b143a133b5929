import { describe, expect, it } from 'vitest';
import { nameKey, nameSimilarity, suggestParty } from '../src/domain/party-match.js';

describe('name keys and similarity', () => {
  it('case, accents, punctuation, "&", a leading "the" and legal forms at the end do not count', () => {
    expect(nameKey('The Café & Co., LLC')).toBe('cafe and');
    expect(nameKey('ACME Office-Supplies Inc.')).toBe('acme office supplies');
    expect(nameKey('  ')).toBe('');
    expect(nameSimilarity('Acme Office Supplies, Inc.', 'acme office supplies')).toBe(1);
  });
  it('a typo or a shorter form of the name is close; another business is not', () => {
    expect(nameSimilarity('Acme Ofice Supplies', 'Acme Office Supplies')).toBeGreaterThan(0.9);
    expect(nameSimilarity('Acme', 'Acme Office Supplies')).toBe(1);
    expect(nameSimilarity('Apex', 'Acme')).toBeLessThan(0.75);
    expect(nameSimilarity('Blue Bottle Coffee', 'Red Bottle Wines')).toBeLessThan(0.75);
    expect(nameSimilarity('', 'Acme')).toBe(0);
  });
});

describe('suggestParty', () => {
  const acme = { id: 'a', name: 'Acme Office Supplies' };
  const apex = { id: 'b', name: 'Apex Legal LLP' };
  const blue = { id: 'c', name: 'Blue Bottle Coffee' };
  const all = [acme, apex, blue];
  it("nothing written, or the linked party's own name: no suggestion", () => {
    expect(suggestParty('', apex, all)).toBeNull();
    expect(suggestParty('APEX LEGAL', apex, all)).toBeNull();
  });
  it('a written name of another party: that party; with no linked party: the best match', () => {
    expect(suggestParty('ACME OFFICE SUPPLIES INC', apex, all)).toEqual(acme);
    expect(suggestParty('Blue Botle Cofee', null, all)).toEqual(blue);
  });
  it('no party close enough, or the linked one is the closest: none', () => {
    expect(suggestParty('Zenith Plumbing', apex, all)).toBeNull();
    expect(suggestParty('Apex Legal Services', apex, all)).toBeNull();
  });
});
