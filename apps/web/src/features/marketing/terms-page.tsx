import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { LegalContactSection, LegalPage } from './legal-page.tsx';

/** /terms */
export function TermsPage() {
  useDocumentTitle('Terms of service');
  return (
    <LegalPage title="Terms of service" updated="1 January 2025">
      <section>
        <h2>1. The service</h2>
        <p>
          RareLens is a software service that helps qualified professionals interpret the genetic variants of a patient’s genome. It
          annotates and ranks genes, phenotypes and variants and helps prepare reports. By creating an account or using the service you
          accept these terms.
        </p>
      </section>
      <section>
        <h2>2. Decision support, not a diagnosis</h2>
        <p>
          Results are decision support. They do not replace the judgement of a clinician or a qualified laboratory professional, who remains
          responsible for every diagnosis, report and treatment decision made with the help of RareLens.
        </p>
      </section>
      <section>
        <h2>3. Your account</h2>
        <ul>
          <li>Keep your password confidential; you are responsible for activity under your account.</li>
          <li>Give accurate information when you register and keep it up to date.</li>
          <li>Tell us at once if you suspect unauthorised access to your account.</li>
        </ul>
      </section>
      <section>
        <h2>4. Patient data</h2>
        <p>
          You may upload patient data only when you have the legal basis and, where required, the consent to do so. You keep ownership of
          the data you upload; we process it only to provide the service, as described in our{' '}
          <Link to="/privacy" className="font-medium text-accent-600 hover:underline">
            Privacy policy
          </Link>
          .
        </p>
      </section>
      <section>
        <h2>5. Acceptable use</h2>
        <p>
          Do not attempt to access other users’ data, disrupt the service, reverse engineer it, or use it for any unlawful purpose. Sharing a
          case or phenotype with another user is your decision and your responsibility.
        </p>
      </section>
      <section>
        <h2>6. Plans and payment</h2>
        <p>Packages are priced per case per month; add-ons such as raw data analysis are priced per case. Prices are agreed in your order.</p>
      </section>
      <section>
        <h2>7. Changes and termination</h2>
        <p>
          We may update these terms; material changes are announced by email before they apply. You may close your account at any time, and
          we may suspend accounts that break these terms.
        </p>
      </section>
      <LegalContactSection number={8} lead="Questions about these terms? Use the" />
    </LegalPage>
  );
}
