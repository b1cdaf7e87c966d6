import { PublicConfig, SocialProvidersSetting, type SocialProviderConfig } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The paths of the fields the schema refuses in `list`, joined with dots. */
function refusedFields(list: unknown): string[] {
  const checked = SocialProvidersSetting.safeParse(list);
  return checked.success ? [] : checked.error.issues.map((issue) => issue.path.join('.'));
}

describe('social_providers setting: what the admin settings may store', () => {
  it('accepts OpenID Connect providers with an issuer and presets without one', () => {
    expect(SocialProvidersSetting.parse([corporate, github])).toEqual([corporate, github]);
  });

  it('names the offending field of each refused provider', () => {
    expect(refusedFields([{ ...corporate, issuer: undefined }])).toEqual(['0.issuer']);
    expect(refusedFields([{ ...corporate, name: 'Corporate SSO' }])).toEqual(['0.name']);
    expect(refusedFields([{ ...corporate, kind: 'twitter' }])).toEqual(['0.kind']);
    expect(refusedFields([{ ...corporate, client_secret: '' }])).toEqual(['0.client_secret']);
    expect(refusedFields([corporate, { ...github, name: 'corporate' }])).toEqual(['1.name']);
    // GitHub and Facebook have no issuer; OpenID Connect providers publish their endpoints.
    expect(refusedFields([{ ...github, issuer: 'https://github.com' }])).toEqual(['0.issuer']);
    expect(refusedFields([{ ...corporate, token_endpoint: 'https://id.example.test/token' }])).toEqual([
      '0.token_endpoint',
    ]);
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
