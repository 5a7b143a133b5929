import { describe, expect, it } from 'vitest';
import { memberLabel, tagCandidates, type Member } from '../src/transactions/tag-search';

const m = (id: string, name: string, email: string, former = false): Member => ({ id, name, email, former });
const members = [
  m('1', 'Grace Hopper', 'grace@navy.example'),
  m('2', 'alan Turing', 'alan@bletchley.example'),
  m('3', '', 'noname@example.com'),
  m('4', 'Ada Lovelace', 'ada@example.com', true),
];

describe('the comment tag picker', () => {
  it('offers every current member by name (case-insensitive order), never a former one', () => {
    expect(tagCandidates(members, '', []).map((x) => x.id)).toEqual(['2', '1', '3']);
  });
  it('searches the name and the email, case-insensitive, anywhere in the text', () => {
    expect(tagCandidates(members, 'HOP', []).map((x) => x.id)).toEqual(['1']);
    expect(tagCandidates(members, 'bletchley', []).map((x) => x.id)).toEqual(['2']);
    expect(tagCandidates(members, '  example ', []).map((x) => x.id)).toEqual(['2', '1', '3']);
    expect(tagCandidates(members, 'lovelace', [])).toEqual([]);
  });
  it('leaves out the members already tagged', () => {
    expect(tagCandidates(members, '', ['1', '3']).map((x) => x.id)).toEqual(['2']);
  });
  it('labels a member by name, else by email', () => {
    expect(memberLabel(members[0]!)).toBe('Grace Hopper');
    expect(memberLabel(members[2]!)).toBe('noname@example.com');
  });
});
