import { Link } from 'react-router';
import type { ComponentType, SVGProps } from 'react';
import { formatMoney } from '@rarelens/contract';
import { Button } from '../../components/button.tsx';
import {
  ArrowRightIcon,
  BuildingIcon,
  ChatIcon,
  CheckIcon,
  DnaIcon,
  FlaskIcon,
  LayersIcon,
  MailIcon,
  ReportIcon,
  ShareIcon,
  ShieldIcon,
  SparklesIcon,
  StethoscopeIcon,
  UploadIcon,
  UserIcon,
} from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { usePlans } from '../orders/index.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { ContactForm } from './contact-form.tsx';
import { ProductPreview } from './product-preview.tsx';

type Feature = { icon: ComponentType<SVGProps<SVGSVGElement>>; title: string; text: string };

const stats = [
  { value: '98%', label: 'success predicting the pathogenicity of missense mutations' },
  { value: '30%', label: 'higher survival with an early diagnosis' },
  { value: '80%', label: 'of rare diseases remain undiagnosed' },
  { value: '5 years', label: 'average diagnostic journey, across 8 or more doctors' },
];

const features: Feature[] = [
  { icon: UploadIcon, title: 'Genome upload', text: 'Upload a VCF, or raw FASTQ reads with the raw data analysis add-on, together with the patient’s history and files.' },
  { icon: SparklesIcon, title: 'PhenomeAI', text: 'Describe the symptoms in your own words; PhenomeAI maps them to standard HPO phenotypes.' },
  { icon: DnaIcon, title: 'Ranked genes and variants', text: 'Candidates ranked by how well they explain the phenotype, with the evidence behind every classification.' },
  { icon: ChatIcon, title: 'GenomeTalks', text: 'Ask the chat assistant about the possible rare diseases behind a case and the reasoning for each.' },
  { icon: ReportIcon, title: 'Reporting', text: 'Collect the variants that matter in a reporting list and download a structured report.' },
  { icon: ShareIcon, title: 'Sharing', text: 'Share phenotypes with colleagues by email for a second opinion, and unshare at any time.' },
];

const steps = [
  { title: 'Upload', text: 'Add the genome file and the clinical symptoms of the patient.' },
  { title: 'Interpret', text: 'RareLens annotates every variant and ranks genes and phenotypes against the symptoms.' },
  { title: 'Report', text: 'Review the evidence, select the variants and generate the report.' },
];

const audiences: Feature[] = [
  { icon: FlaskIcon, title: 'Laboratories', text: 'Consistent, documented interpretation at the pace of your sequencing volume.' },
  { icon: StethoscopeIcon, title: 'Clinicians', text: 'From symptoms to candidate diagnoses without a bioinformatics pipeline.' },
  { icon: UserIcon, title: 'Individuals', text: 'A clear view of your own genome data, to discuss with your doctor.' },
];


/** A section's eyebrow, title and lead paragraph: centred above the section, or (`isCentred` off) at the top of a column. */
function SectionHeading({
  eyebrow,
  title,
  children,
  isCentred = true,
}: {
  eyebrow: string;
  title: string;
  children?: React.ReactNode;
  isCentred?: boolean;
}) {
  const heading = (
    <>
      <p className="text-sm font-semibold tracking-wide text-accent-600 uppercase">{eyebrow}</p>
      <h2 className="mt-3 text-3xl font-semibold tracking-tight text-ink-900 sm:text-4xl">{title}</h2>
      {children ? <p className="mt-4 text-lg leading-8 text-ink-600">{children}</p> : null}
    </>
  );
  return isCentred ? <div className="mx-auto max-w-2xl text-center">{heading}</div> : heading;
}

function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_right,var(--color-accent-50),transparent_55%),linear-gradient(to_bottom,var(--color-ink-50),white)]"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 opacity-[0.35] [background-image:linear-gradient(var(--color-ink-100)_1px,transparent_1px),linear-gradient(90deg,var(--color-ink-100)_1px,transparent_1px)] [background-size:48px_48px] [mask-image:linear-gradient(to_bottom,black,transparent_85%)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 lg:grid-cols-2 lg:px-8 lg:pt-24 lg:pb-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-accent-200 bg-white px-3 py-1 text-xs font-semibold text-accent-700 shadow-sm">
            <SparklesIcon className="size-3.5" /> AI for rare disease genomics
          </p>
          <h1 className="mt-6 text-4xl leading-[1.1] font-semibold tracking-tight text-ink-900 sm:text-5xl lg:text-6xl">
            Effortless variant interpretation <span className="text-accent-600">with AI</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-ink-600">
            RareLens simplifies variant interpretation: upload a genome with the patient’s symptoms and review ranked genes, phenotypes and
            variants — saving time and improving accuracy.
          </p>
          <div className="mt-9 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to="/book-demo">
                Request a demo <ArrowRightIcon className="size-4" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/register">Create an account</Link>
            </Button>
          </div>
          <p className="mt-8 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-ink-500">
            <span className="inline-flex items-center gap-1.5">
              <CheckIcon className="size-4 text-accent-600" /> VCF and FASTQ
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CheckIcon className="size-4 text-accent-600" /> HPO phenotypes
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CheckIcon className="size-4 text-accent-600" /> ACMG evidence
            </span>
          </p>
        </div>
        <ProductPreview />
      </div>
    </section>
  );
}

function Stats() {
  return (
    <section aria-label="Why it matters" className="bg-ink-900">
      <dl className="mx-auto grid max-w-7xl grid-cols-1 gap-px overflow-hidden px-4 py-4 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        {stats.map((stat) => (
          <div key={stat.value} className="flex flex-col gap-2 px-4 py-8 lg:px-6">
            <dt className="order-2 text-sm leading-6 text-ink-200">{stat.label}</dt>
            <dd className="order-1 text-4xl font-semibold tracking-tight text-white">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ProductSection() {
  return (
    <section id="product" className="py-24 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Product" title="From genome to diagnosis in one workspace">
          Everything a rare disease case needs, from the raw file to the signed-off report.
        </SectionHeading>
        <div className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <div key={title} className="group rounded-2xl border border-ink-100 bg-white p-6 transition-shadow hover:shadow-card">
              <span className="flex size-11 items-center justify-center rounded-xl bg-accent-50 text-xl text-accent-600 ring-1 ring-accent-100">
                <Icon />
              </span>
              <h3 className="mt-5 text-base font-semibold text-ink-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-ink-600">{text}</p>
            </div>
          ))}
        </div>

        <div className="mt-24 grid gap-12 lg:grid-cols-[minmax(0,4fr)_minmax(0,8fr)] lg:items-start">
          <div>
            <h3 className="text-2xl font-semibold tracking-tight text-ink-900">How it works</h3>
            <p className="mt-3 text-ink-600">Three steps, with the evidence visible at each one.</p>
          </div>
          <ol className="grid gap-6 sm:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title} className="relative rounded-2xl bg-ink-50 p-6">
                <span className="text-sm font-semibold text-accent-600 tabular-nums">0{i + 1}</span>
                <h4 className="mt-2 text-base font-semibold text-ink-900">{step.title}</h4>
                <p className="mt-2 text-sm leading-6 text-ink-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>

        <div className="mt-24">
          <h3 className="text-center text-2xl font-semibold tracking-tight text-ink-900">Built for everyone on the diagnostic path</h3>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {audiences.map(({ icon: Icon, title, text }) => (
              <div key={title} className="flex gap-4 rounded-2xl border border-ink-100 p-6">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-ink-900 text-lg text-white">
                  <Icon />
                </span>
                <div>
                  <h4 className="font-semibold text-ink-900">{title}</h4>
                  <p className="mt-1 text-sm leading-6 text-ink-600">{text}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}

function AboutSection() {
  return (
    <section id="about-us" className="bg-ink-50 py-24 sm:py-28">
      <div className="mx-auto grid max-w-7xl gap-14 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <SectionHeading eyebrow="About us" title="Shortening the diagnostic odyssey" isCentred={false} />
          <div className="mt-6 space-y-4 text-lg leading-8 text-ink-600">
            <p>
              A family affected by a rare disease waits on average five years, and sees eight or more doctors, before they have a name for
              it. Most rare diseases are genetic — and most are still undiagnosed.
            </p>
            <p>
              RareLens was founded in 2024 by a team working at the meeting point of clinical genetics, bioinformatics and machine learning.
              We build the tools we wanted ourselves: fast, transparent about their evidence, and made for the people who sign the report.
            </p>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {[
            { icon: ShieldIcon, title: 'Evidence first', text: 'Every ranking shows the data behind it: population frequency, predictions, ClinVar and phenotype match.' },
            { icon: LayersIcon, title: 'Curated models', text: 'AI where it helps, with curated knowledge bases and published guidelines underneath.' },
            { icon: BuildingIcon, title: 'Biotechnology, since 2024', text: 'An independent company focused on rare disease diagnostics.' },
            { icon: MailIcon, title: 'Close to our users', text: 'Every feature starts with a conversation with a lab or a clinic.' },
          ].map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl bg-white p-6 shadow-card">
              <Icon className="size-6 text-accent-600" />
              <h3 className="mt-4 font-semibold text-ink-900">{title}</h3>
              <p className="mt-1.5 text-sm leading-6 text-ink-600">{text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

/** The configured price list (GET /api/plans, RARELENS_PRICE_LIST): one card per package. */
function PlanCards() {
  const plans = usePlans();
  if (plans.isPending) return <PageSpinner label="Loading prices" />;
  if (plans.isError) {
    return <p className="mt-16 text-center text-ink-600">Prices are on request: contact us or request a demo.</p>;
  }
  const { currency } = plans.data;
  return (
    <div className="mt-16 grid gap-6 lg:grid-cols-3">
      {plans.data.plans.map((plan) => (
        <div
          key={plan.code}
          data-testid="pricing-plan"
          data-plan={plan.code}
          className={
            plan.isFeatured
              ? 'relative flex flex-col rounded-2xl bg-ink-900 p-8 text-white shadow-xl ring-1 ring-ink-900'
              : 'flex flex-col rounded-2xl border border-ink-100 bg-white p-8'
          }
        >
          {plan.isFeatured ? (
            <span className="absolute -top-3 left-8 rounded-full bg-accent-600 px-3 py-1 text-xs font-semibold text-white">Recommended</span>
          ) : null}
          <h3 className="text-lg font-semibold">{plan.name}</h3>
          <p className={plan.isFeatured ? 'mt-1 text-sm text-ink-200' : 'mt-1 text-sm text-ink-500'}>{plan.summary}</p>
          <p className="mt-6 flex items-baseline gap-2">
            <span className="text-3xl font-semibold tracking-tight" data-testid="pricing-price">
              {formatMoney(plan.pricePerCase, currency)}
            </span>
          </p>
          <p className={plan.isFeatured ? 'text-sm text-ink-300' : 'text-sm text-ink-500'}>per case per month</p>
          <ul className="mt-8 flex-1 space-y-3 text-sm">
            {plan.features.map((feature) => (
              <li key={feature} className="flex items-start gap-2.5">
                <CheckIcon className={plan.isFeatured ? 'mt-0.5 size-4 shrink-0 text-accent-300' : 'mt-0.5 size-4 shrink-0 text-accent-600'} />
                {feature}
              </li>
            ))}
          </ul>
          <Button asChild size="lg" variant={plan.isFeatured ? 'secondary' : 'outline'} className="mt-8">
            <Link to="/book-demo">Request a demo</Link>
          </Button>
        </div>
      ))}
    </div>
  );
}

/** "€X per case" for the raw data analysis add-on, once the price list is in. */
function AddOnPrice() {
  const plans = usePlans();
  const addOn = plans.data?.addOns.find((a) => a.code === 'raw-data-analysis');
  if (!plans.data || !addOn) return <>Priced per case.</>;
  return <span data-testid="pricing-addon-price">{formatMoney(addOn.pricePerCase, plans.data.currency)} per case.</span>;
}

function PricingSection() {
  return (
    <section id="pricing" className="py-24 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Pricing" title="Plans that follow your caseload">
          Every package is priced per case per month, for companies and for individuals.
        </SectionHeading>
        <PlanCards />
        <div className="mt-8 flex flex-col gap-4 rounded-2xl border border-dashed border-accent-300 bg-accent-50/50 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8">
          <div className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-white text-xl text-accent-600 shadow-card">
              <DnaIcon />
            </span>
            <div>
              <h3 className="font-semibold text-ink-900">Add-on: raw data analysis</h3>
              <p className="mt-1 text-sm text-ink-600">
                FASTQ to VCF — alignment and variant calling before interpretation. <AddOnPrice />
              </p>
            </div>
          </div>
          <Button asChild variant="outline">
            <Link to="/#contact-us">Contact us</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

function ContactSection() {
  return (
    <section id="contact-us" className="bg-gradient-to-b from-white to-ink-50 py-24 sm:py-28">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:px-8">
        <div>
          <SectionHeading eyebrow="Contact" title="Talk to our team" isCentred={false}>
            Questions about a case type, an integration or pricing? Write to us and a specialist will answer.
          </SectionHeading>
          <div className="mt-8 rounded-2xl bg-ink-900 p-6 text-white">
            <p className="font-semibold">Prefer to see it live?</p>
            <p className="mt-1 text-sm text-ink-200">Book a 30-minute demo on a case like yours.</p>
            <Button asChild variant="secondary" className="mt-4">
              <Link to="/book-demo">Request a demo</Link>
            </Button>
          </div>
        </div>
        <div className="rounded-2xl border border-ink-100 bg-white p-6 shadow-card sm:p-8">
          <ContactForm />
        </div>
      </div>
    </section>
  );
}

/** / — the public landing page (signed-out only). */
export function LandingPage() {
  useDocumentTitle(undefined);
  return (
    <>
      <Hero />
      <Stats />
      <ProductSection />
      <AboutSection />
      <PricingSection />
      <ContactSection />
    </>
  );
}
