import { defineModule, lazyScreen } from '../../app/webModule';
import { CallbackScreen, LoginScreen, LogoutScreen, NoAccessScreen, NotFoundScreen, RootScreen, UnverifiedScreen } from './EntryScreens';

const onboarding = () => import('./Onboarding');
const journeys = () => import('./Journeys');
const signup = () => import('./Signup');
const Onboarding = lazyScreen(journeys, (m) => m.OnboardingScreen);

/** Entry: the shell's own screens (signing in and out, errors), creating a company, the terms, onboarding and SSO. */
export default defineModule({
  routes: [
    // The shell's screens come with the first load: signing in never waits for a chunk.
    { path: '/', screen: RootScreen, frame: 'bare' },
    { path: '/login', screen: LoginScreen, frame: 'bare' },
    { path: '/signup', screen: lazyScreen(signup, (m) => m.SignupScreen), frame: 'bare' },
    { path: '/auth0/callback', screen: CallbackScreen, frame: 'bare' },
    { path: '/logout', screen: LogoutScreen, frame: 'bare' },
    { path: '/unverified', screen: UnverifiedScreen, frame: 'bare' },
    { path: '/no-access', screen: NoAccessScreen, frame: 'bare' },
    { path: '/benchmarking-no-access', screen: NoAccessScreen, frame: 'bare' },
    { path: '/not-found', screen: NotFoundScreen, frame: 'bare' },
    { path: '/create-company', screen: lazyScreen(onboarding, (m) => m.CreateCompanyScreen), frame: 'companyless' },
    { path: '/create-account', screen: lazyScreen(signup, (m) => m.CreateAccountScreen), frame: 'companyless' },
    { path: '/acknowledge-terms-of-use', screen: lazyScreen(onboarding, (m) => m.TermsScreen), frame: 'bare' },
    { path: '/onboarding', screen: Onboarding },
    { path: '/onboarding/user', screen: lazyScreen(journeys, (m) => m.OnboardingUserScreen) },
    { path: '/onboarding/company', screen: lazyScreen(journeys, (m) => m.OnboardingCompanyScreen) },
    { path: '/onboarding/*', screen: Onboarding },
    { path: '/auth/sso', screen: lazyScreen(journeys, (m) => m.SsoScreen), frame: 'bare' },
    { path: '/auth0/idp-initiated-callback', screen: lazyScreen(journeys, (m) => m.IdpInitiatedScreen), frame: 'bare' },
  ],
});
