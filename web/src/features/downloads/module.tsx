import { defineModule, lazyScreen } from '../../app/webModule';

const downloads = () => import('./DownloadScreen');

/** Downloads: one screen for every download route. */
export default defineModule({
  routes: [
    { path: '/downloads/:downloadId', screen: lazyScreen(downloads, (m) => m.DownloadScreen) },
    { path: '/compensation-report-download/:downloadId', screen: lazyScreen(downloads, (m) => () => <m.DownloadScreen kind="compensationReport" />) },
    { path: '/bulk-download-employee-comp/:downloadId', screen: lazyScreen(downloads, (m) => () => <m.DownloadScreen kind="employeeComp" />) },
  ],
});
