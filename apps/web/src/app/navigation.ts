import type { ComponentType, SVGProps } from 'react';
import {
  ChatIcon,
  GeneIcon,
  HomeIcon,
  IdCardIcon,
  LockIcon,
  LogOutIcon,
  ReceiptIcon,
  ReportIcon,
  ShareIcon,
  SparklesIcon,
  StethoscopeIcon,
  UploadIcon,
} from '../components/icons.tsx';

export type NavItem = {
  label: string;
  to: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Only active on an exact path match (otherwise also on sub-paths). */
  end?: boolean;
  /** Shown under the label in the side navigation. */
  hint?: string;
};

/** Navigation without a product open (layout my-account, §2). */
export const myAccountNavigation: NavItem[] = [
  { label: 'Home', to: '/home', icon: HomeIcon, end: true },
  { label: 'Upload patient data', to: '/upload', icon: UploadIcon, hint: 'Genome Upload' },
  { label: 'Account information', to: '/my-account/account-information', icon: IdCardIcon },
  { label: 'Passwords', to: '/my-account/passwords', icon: LockIcon },
  { label: 'Share settings', to: '/my-product/share-settings', icon: ShareIcon },
  { label: 'Orders', to: '/orders', icon: ReceiptIcon, hint: 'Plans and invoices' },
  { label: 'Logout', to: '/logout', icon: LogOutIcon },
];

/** Navigation with a product open (layout product, §2); Genes only for a shared product; GenomeTalks (issue 11). */
export function productNavigation(productId: string, isShared: boolean): NavItem[] {
  const base = `/my-product/${encodeURIComponent(productId)}`;
  const items: Array<NavItem | false> = [
    { label: 'Home', to: '/home', icon: HomeIcon, end: true },
    { label: 'Phenotypes', to: `${base}/phenotypes`, icon: StethoscopeIcon },
    isShared && { label: 'Genes', to: `${base}/genes`, icon: GeneIcon },
    { label: 'Diagnose module', to: `${base}/diagnose`, icon: SparklesIcon, hint: 'PhenomeAI' },
    { label: 'GenomeTalks', to: `${base}/chat`, icon: ChatIcon, hint: 'Chat assistant' },
    { label: 'Reporting', to: `${base}/report`, icon: ReportIcon },
  ];
  return items.filter((item): item is NavItem => item !== false);
}

/** Signed-out header and footer links: anchors on the landing page. */
export const marketingLinks = [
  { label: 'Product', to: '/#product' },
  { label: 'About us', to: '/#about-us' },
  { label: 'Pricing', to: '/#pricing' },
  { label: 'Contact', to: '/#contact-us' },
] as const;
