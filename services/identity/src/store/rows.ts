import type { Role } from '@ledgerline/platform';

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  password_hash: string | null;
  is_verified: boolean;
  user_type: 'business' | 'firm';
  is_onboarded: boolean;
  profile: ProfileJson | null;
  consecutive_failures: number;
  locked_until: Date | null;
  last_code_verified_at: Date | null;
  require_code_always?: boolean;
}

export interface ProfileJson {
  maxTeamSize?: number;
  companyName?: string;
  role?: string;
  phoneNumber?: string;
  city?: string;
  country?: string;
  heardAboutUs?: string;
  /** The firm a firm user signed up with (the firm service keeps the firm; empty for invited members). */
  firmName?: string;
  /** The firm invite a user was created for (a retry of its acceptance finds them). */
  firmInviteId?: string;
}

export interface MembershipRow {
  workspace_id: string;
  name: string;
  organization_id: string;
  organization_name: string;
  role: Role;
  is_default: boolean;
  /** The firm whose grant gives this access; null for a membership of the workspace. */
  firm_id: string | null;
}

export interface SessionRow {
  id: string;
  user_id: string;
  kind: 'pending' | 'active';
  last_seen_at: Date;
  idle_expires_at: Date;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

export interface CodeRow {
  id: string;
  session_id: string;
  user_id: string;
  code_hash: Buffer;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  superseded_at: Date | null;
  created_at: Date;
}
