/**
 * Login must not tell whether an account exists (docs/security.md, Login). Wall-clock assertions would be flaky, so
 * this checks the cause instead: an unknown user costs the same argon2 verification, against a hash
 * with the same parameters, as a wrong password does.
 */
import { argon2Hasher } from '../../../src/auth/passwords';
import { ADMIN, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';

describe('login timing', () => {
  let h: AuthHarness;
  let app: TestApp;
  let verify: jest.SpyInstance;

  beforeAll(async () => {
    h = await startAuthHarness();
    await registerAdmin(await h.app());
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    app = await h.app();
    verify = jest.spyOn(argon2Hasher, 'verify');
  });
  afterEach(() => verify.mockRestore());

  const params = (hash: string) => /^\$argon2id\$v=\d+\$([a-z]=\d+(?:,[a-z]=\d+)*)\$/.exec(hash)?.[1];

  it('an unknown user and a wrong password each cost one argon2id verification with the same parameters', async () => {
    const unknown = await app.call('POST', '/auth/login', { body: { username: 'nobody-here', password: 'some password 123' } });
    expect(verify).toHaveBeenCalledTimes(1);
    const dummyHash = verify.mock.calls[0][0] as string;

    const wrong = await app.call('POST', '/auth/login', { body: { username: ADMIN.username, password: 'some password 123' } });
    expect(verify).toHaveBeenCalledTimes(2);
    const realHash = verify.mock.calls[1][0] as string;

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.error.code).toBe('AUTH.INVALID_CREDENTIALS');
    expect(dummyHash).not.toBe(realHash);
    expect(params(dummyHash)).toBeDefined();
    expect(params(dummyHash)).toBe(params(realHash));
    // Both verifications really ran and failed; neither path short-circuited.
    expect(await verify.mock.results[0]!.value).toBe(false);
    expect(await verify.mock.results[1]!.value).toBe(false);
  });

  it('the right password is one verification too', async () => {
    const ok = await app.call('POST', '/auth/login', { body: ADMIN });
    expect(ok.status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(await verify.mock.results[0]!.value).toBe(true);
  });
});
