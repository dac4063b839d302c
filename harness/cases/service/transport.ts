// service.callback transport in production mode (§2.1 callback_url "Must be https:// in
// production", §6 Transport "Plain HTTP endpoints receive no callbacks in production").
import { describeAnswer } from './session.ts';
import { atMs, firstCallback, noCallback, requireAccepted, serviceCase, type ServiceCase } from './define.ts';

export const TRANSPORT_CASES: readonly ServiceCase[] = [
  serviceCase({
    id: 'service.callback.https-only-in-production',
    title: 'in production an http:// callback URL is refused or never called',
    specRef: '§2.1, §6 Transport',
    level: 'MUST',
    needs: ['production'],
    negative: 'no-delivery',
    async check(s) {
      if (!s.listener.plainPublicUrl) return s.skip('no plain-http listener is open');
      const tag = s.newTag();
      const fields = s.fields({ tag, callback_url: s.callbackUrl(tag, { plain: true }) });
      const answer = await s.sendAnswered({ fields }, { label: 'http:// callback_url in production' });
      const watchMs = s.target.timing.callbackTimeoutMs;
      s.ctx.progress(`answered ${describeAnswer(answer).slice(0, 40)}; watching ${watchMs} ms for a plain-http callback`);
      const seen = await s.waitFor({ tag }, { timeoutMs: watchMs });
      if (seen.length > 0) {
        return s.fail(`a callback was delivered over plain http to ${fields.callback_url} after ${atMs(s, seen[0]!)} ms (request answered ${describeAnswer(answer)})`);
      }
      const l = s.target.listener;
      if (answer.judgement === 'accepted' && l.publicUrl !== null && !l.plainPublicUrl) {
        // Behind a tunnel the plain listener sits on a local address the service cannot call:
        // "never called" would prove nothing, and a service that does call http would pass.
        return s.skip(`the http:// callback URL was accepted (${describeAnswer(answer)}), but the plain-http listener at ${s.listener.plainPublicUrl} is not reachable through listener.publicUrl; set listener.plainPublicUrl (a plain-http tunnel) to see whether the service calls it`);
      }
      return s.pass({ notes: [`${answer.judgement === 'accepted' ? 'accepted, but never called' : 'refused'}: ${describeAnswer(answer)}`] });
    },
  }),
  serviceCase({
    id: 'service.callback.delivered-over-https',
    title: 'in production callbacks arrive over https',
    specRef: '§6 Transport',
    level: 'MUST',
    needs: ['production'],
    async check(s) {
      if (!s.listener.publicUrl.startsWith('https:')) {
        return s.skip('listener.publicUrl is http://: set listener.tls (or an https publicUrl) to receive production callbacks');
      }
      const fields = s.fields();
      requireAccepted(s, await s.sendAnswered({ fields }, { label: 'a correctly signed collect whose callback_url is https' }));
      const [d] = await firstCallback(s, fields.tag);
      if (!d) {
        // A service that calls the https URL over plain http fails the TLS handshake at the
        // listener and is never recorded: say so, "no callback" alone would send people astray.
        const outcome = noCallback(s);
        if (!s.listener.overHttps) return outcome;
        return { ...outcome, reason: `${outcome.reason ?? ''}; the listener speaks only TLS at ${fields.callback_url}: a callback sent there over plain http would fail its handshake and not be seen, one possible cause` };
      }
      if (s.listener.overHttps && !d.overHttps) return s.fail('the callback arrived over plain http');
      const how = s.listener.overHttps ? 'over TLS at the listener' : `through ${s.listener.publicUrl} (TLS ends before the listener)`;
      return s.pass({ notes: [`callback received ${how} after ${atMs(s, d)} ms`] });
    },
  }),
];
