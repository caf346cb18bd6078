import { Notice } from '../../console-ui/notice';
import type { ConsoleLang } from '../../console-ui/i18n';

const TEXT = {
  es: {
    title: 'Esta sección es del equipo de la plataforma',
    body: 'Tu usuario pertenece a un comercio. Su perfil, medios de pago y personas están en Configuración.',
    link: 'Ir a Configuración',
  },
  en: {
    title: 'This section is for the platform team',
    body: 'Your user belongs to a merchant. Its profile, payment methods and people are in Settings.',
    link: 'Go to Settings',
  },
};

/** What a merchant user sees at /platform: a pointer to its own settings (the procedures refuse it anyway). */
export function PlatformOnly({ lang }: { lang: ConsoleLang }) {
  const text = TEXT[lang];
  return <Notice title={text.title} body={text.body} href="/settings" link={text.link} />;
}
