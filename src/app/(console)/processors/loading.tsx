export { PageLoading as default } from '../../console-ui/page-loading';
