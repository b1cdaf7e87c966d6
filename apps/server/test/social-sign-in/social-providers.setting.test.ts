import { PublicConfig, type SocialProviderConfig } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/app-error';
import {
  parseSocialProvidersSetting,
  presentSocialProvidersForAdmin,
} from '../../src/modules/social-sign-in/social-providers.setting';
import { createTestApp, type TestApp } from '../support/test-app';

const corporate: SocialProviderConfig = {
  name: 'corporate',
  kind: 'oidc',
  label: 'Corporate SSO',
  issuer: 'https://id.example.test',
  client_id: 'atelier',
  client_secret: 'corporate-secret',
  enabled: true,
};
const github: SocialProviderConfig = {
  name: 'github',
  kind: 'github',
  client_id: 'gh-client',
  client_secret: 'gh-secret',
  enabled: false,
};

/** The 422 field map the validator throws, or null when it accepted the input. */
function refusal(input: unknown, stored: SocialProviderConfig[] = []): Record<string, string[]> | null {
  try {
    parseSocialProvidersSetting(input, stored);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).errors ?? {};
  }
}

describe('social_providers setting: what the admin settings may store', () => {
  it('accepts OpenID Connect providers with an issuer and presets without one', () => {
    expect(parseSocialProvidersSetting([corporate, github], [])).toEqual([corporate, github]);
  });

  it('names the offending field of each refused provider', () => {
    expect(refusal([{ ...corporate, issuer: undefined }])).toHaveProperty(['social_providers.0.issuer']);
    expect(refusal([{ ...corporate, name: 'Corporate SSO' }])).toHaveProperty(['social_providers.0.name']);
    expect(refusal([{ ...corporate, kind: 'twitter' }])).toHaveProperty(['social_providers.0.kind']);
    expect(refusal([corporate, { ...github, name: 'corporate' }])).toHaveProperty([
      'social_providers.1.name',
    ]);
    expect(refusal([{ ...github, issuer: 'https://github.com' }])).toHaveProperty([
      'social_providers.0.issuer',
    ]);
    expect(refusal([{ ...corporate, token_endpoint: 'https://id.example.test/token' }])).toHaveProperty([
      'social_providers.0.token_endpoint',
    ]);
    expect(refusal('corporate')).not.toBeNull();
  });

  it('keeps the stored secret of a provider sent without one, and refuses a new one without', () => {
    const sent = [{ ...corporate, client_secret: null, label: 'Renamed' }];
    expect(parseSocialProvidersSetting(sent, [corporate])).toEqual([{ ...corporate, label: 'Renamed' }]);
    expect(refusal(sent, [])).toHaveProperty(['social_providers.0.client_secret']);
  });

  it('reads back every field but the secret', () => {
    const [view] = presentSocialProvidersForAdmin([corporate]);
    expect(view).toEqual({ ...corporate, client_secret: null, client_secret_set: true });
  });
});

describe('GET /api/config socialProviders', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ settings: { social_providers: [corporate, github] } });
  });
  afterAll(() => t.close());

  it('lists the enabled providers for the buttons, without client ids or secrets', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/config' });
    const config = PublicConfig.parse(answer.json());
    expect(config.socialProviders).toEqual([{ name: 'corporate', kind: 'oidc', label: 'Corporate SSO' }]);
    expect(answer.body).not.toContain('corporate-secret');
    expect(answer.body).not.toContain('gh-client');
  });
});
