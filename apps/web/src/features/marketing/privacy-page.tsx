import { useDocumentTitle } from '../../lib/document-title.ts';
import { LegalContactSection, LegalPage } from './legal-page.tsx';

/** /privacy — states that children under 13 are not served (§9). */
export function PrivacyPage() {
  useDocumentTitle('Privacy policy');
  return (
    <LegalPage title="Privacy policy" updated="1 January 2025">
      <section>
        <h2>1. Who we are</h2>
        <p>
          RareLens provides software for genetic variant interpretation. This policy explains which personal data we process, why, and the
          choices you have.
        </p>
      </section>
      <section>
        <h2>2. Data we process</h2>
        <ul>
          <li>Account data: name, surname, email, date of birth and, if you add them, address, country, region, phone number and language.</li>
          <li>Case data you upload: genome files, clinical symptoms, additional documents and images, and the results computed from them.</li>
          <li>Messages you send us through the contact and demo request forms.</li>
          <li>Technical data needed to run the service securely, such as session cookies and security logs.</li>
        </ul>
      </section>
      <section>
        <h2>3. Why we process it</h2>
        <p>
          To provide the service you asked for, to keep it secure, to answer your messages, and to meet our legal obligations. We do not sell
          personal data and do not use case data for advertising.
        </p>
      </section>
      <section>
        <h2>4. Genetic and health data</h2>
        <p>
          Genome files and clinical information are special categories of personal data. They are processed only to produce the results you
          request, are visible only to you and to the users you share them with, and are protected in transit and at rest.
        </p>
      </section>
      <section>
        <h2>5. Cookies</h2>
        <p>
          We use strictly necessary cookies: two session cookies that keep you signed in, and a locale cookie that remembers your language
          for 365 days. We do not use advertising cookies.
        </p>
      </section>
      <section>
        <h2>6. Children</h2>
        <p>
          RareLens is not directed to children under 13, and we do not serve them or knowingly collect their personal data. If you believe a
          child under 13 has given us personal data, contact us and we will delete it.
        </p>
      </section>
      <section>
        <h2>7. Retention and your rights</h2>
        <p>
          We keep account data while your account exists and case data until you delete it or close your account. You may access, correct,
          export or delete your personal data, and object to or restrict its processing.
        </p>
      </section>
      <LegalContactSection number={8} lead="For any privacy question or request, use the" />
    </LegalPage>
  );
}
