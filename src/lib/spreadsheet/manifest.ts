import { SITE_NAME } from '../routes.ts';
import { SPREADSHEET_NAMESPACE } from './functions.ts';

/**
 * The add-in's XML manifest (the "add-in only" manifest Excel uploads): a task pane add-in for
 * workbooks whose custom functions and task pane share one runtime (SharedRuntime 1.1), so the
 * functions see the key the task pane stored and may call the data API cross-origin on every
 * platform. Every address is absolute, under the site's own URL; elements are in the order the
 * manifest's schema requires.
 */

/** The add-in's identity; it must never change, or Excel treats a new version as another add-in. */
export const ADD_IN_ID = '5f0c8a3e-2d7b-4c61-9a4e-7b1d3c9e6f20';
/** The manifest's version: raise it when the manifest changes, so Office refreshes its copy. */
export const ADD_IN_VERSION = '1.0.0.0';

/** Where the add-in's files are served, under the site. */
export const ADD_IN_BASE_PATH = '/excel-add-in';

/** Whether a path is one of the add-in's files (whose pages Office may frame). */
export function isAddInPath(path: string): boolean {
  return path === ADD_IN_BASE_PATH || path.startsWith(`${ADD_IN_BASE_PATH}/`);
}

/** Each file of the add-in, by its path on the site. */
export const ADD_IN_PATHS = {
  manifest: `${ADD_IN_BASE_PATH}/manifest.xml`,
  metadata: `${ADD_IN_BASE_PATH}/functions.json`,
  script: `${ADD_IN_BASE_PATH}/functions.js`,
  taskpane: `${ADD_IN_BASE_PATH}/taskpane`,
  icon16: `${ADD_IN_BASE_PATH}/icon-16.png`,
  icon32: `${ADD_IN_BASE_PATH}/icon-32.png`,
  icon64: `${ADD_IN_BASE_PATH}/icon-64.png`,
  icon80: `${ADD_IN_BASE_PATH}/icon-80.png`,
} as const;

/** The icon sizes the manifest names, in pixels. */
export const ADD_IN_ICON_SIZES = [16, 32, 64, 80] as const;

/** The documentation page of the add-in (the manifest's SupportUrl and the functions' help). */
export const ADD_IN_DOCS_PATH = '/developer/docs/excel-add-on';

/** The page that writes a formula for any endpoint, parameters and fields. */
export const EXPLORER_DOCS_PATH = '/developer/docs/excel-add-on-explorer';

export interface ManifestOptions {
  /** The site's absolute URL, without a trailing slash (PUBLIC_SITE_URL). */
  siteUrl: string;
}

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** The manifest's text. */
export function addInManifest({ siteUrl }: ManifestOptions): string {
  const site = siteUrl.replace(/\/+$/, '');
  const url = (path: string): string => escapeXml(`${site}${path}`);
  const name = escapeXml(SITE_NAME);
  const description = escapeXml(
    `${SITE_NAME} market data in Excel: quotes, price history, financial statements and company profiles as formulas (=${SPREADSHEET_NAMESPACE}.QUOTE("AAPL")).`,
  );
  const origin = escapeXml(new URL(site).origin);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<OfficeApp xmlns="http://schemas.microsoft.com/office/appforoffice/1.1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:bt="http://schemas.microsoft.com/office/officeappbasictypes/1.0"
  xmlns:ov="http://schemas.microsoft.com/office/taskpaneappversionoverrides"
  xsi:type="TaskPaneApp">
  <Id>${ADD_IN_ID}</Id>
  <Version>${ADD_IN_VERSION}</Version>
  <ProviderName>${name}</ProviderName>
  <DefaultLocale>en-US</DefaultLocale>
  <DisplayName DefaultValue="${name}"/>
  <Description DefaultValue="${description}"/>
  <IconUrl DefaultValue="${url(ADD_IN_PATHS.icon32)}"/>
  <HighResolutionIconUrl DefaultValue="${url(ADD_IN_PATHS.icon64)}"/>
  <SupportUrl DefaultValue="${url(ADD_IN_DOCS_PATH)}"/>
  <AppDomains>
    <AppDomain>${origin}</AppDomain>
  </AppDomains>
  <Hosts>
    <Host Name="Workbook"/>
  </Hosts>
  <Requirements>
    <Sets DefaultMinVersion="1.1">
      <Set Name="SharedRuntime" MinVersion="1.1"/>
      <Set Name="CustomFunctionsRuntime" MinVersion="1.1"/>
    </Sets>
  </Requirements>
  <DefaultSettings>
    <SourceLocation DefaultValue="${url(ADD_IN_PATHS.taskpane)}"/>
  </DefaultSettings>
  <Permissions>ReadWriteDocument</Permissions>
  <VersionOverrides xmlns="http://schemas.microsoft.com/office/taskpaneappversionoverrides" xsi:type="VersionOverridesV1_0">
    <Hosts>
      <Host xsi:type="Workbook">
        <Runtimes>
          <Runtime resid="Taskpane.Url" lifetime="long"/>
        </Runtimes>
        <AllFormFactors>
          <ExtensionPoint xsi:type="CustomFunctions">
            <Script>
              <SourceLocation resid="Functions.Script.Url"/>
            </Script>
            <Page>
              <SourceLocation resid="Taskpane.Url"/>
            </Page>
            <Metadata>
              <SourceLocation resid="Functions.Metadata.Url"/>
            </Metadata>
            <Namespace resid="Functions.Namespace"/>
          </ExtensionPoint>
        </AllFormFactors>
        <DesktopFormFactor>
          <GetStarted>
            <Title resid="GetStarted.Title"/>
            <Description resid="GetStarted.Description"/>
            <LearnMoreUrl resid="GetStarted.LearnMoreUrl"/>
          </GetStarted>
          <FunctionFile resid="Taskpane.Url"/>
          <ExtensionPoint xsi:type="PrimaryCommandSurface">
            <OfficeTab id="TabHome">
              <Group id="DataGroup">
                <Label resid="Group.Label"/>
                <Icon>
                  <bt:Image size="16" resid="Icon.16x16"/>
                  <bt:Image size="32" resid="Icon.32x32"/>
                  <bt:Image size="80" resid="Icon.80x80"/>
                </Icon>
                <Control xsi:type="Button" id="TaskpaneButton">
                  <Label resid="TaskpaneButton.Label"/>
                  <Supertip>
                    <Title resid="TaskpaneButton.Label"/>
                    <Description resid="TaskpaneButton.Tooltip"/>
                  </Supertip>
                  <Icon>
                    <bt:Image size="16" resid="Icon.16x16"/>
                    <bt:Image size="32" resid="Icon.32x32"/>
                    <bt:Image size="80" resid="Icon.80x80"/>
                  </Icon>
                  <Action xsi:type="ShowTaskpane">
                    <TaskpaneId>ButtonId1</TaskpaneId>
                    <SourceLocation resid="Taskpane.Url"/>
                  </Action>
                </Control>
              </Group>
            </OfficeTab>
          </ExtensionPoint>
        </DesktopFormFactor>
      </Host>
    </Hosts>
    <Resources>
      <bt:Images>
        <bt:Image id="Icon.16x16" DefaultValue="${url(ADD_IN_PATHS.icon16)}"/>
        <bt:Image id="Icon.32x32" DefaultValue="${url(ADD_IN_PATHS.icon32)}"/>
        <bt:Image id="Icon.80x80" DefaultValue="${url(ADD_IN_PATHS.icon80)}"/>
      </bt:Images>
      <bt:Urls>
        <bt:Url id="Functions.Script.Url" DefaultValue="${url(ADD_IN_PATHS.script)}"/>
        <bt:Url id="Functions.Metadata.Url" DefaultValue="${url(ADD_IN_PATHS.metadata)}"/>
        <bt:Url id="Taskpane.Url" DefaultValue="${url(ADD_IN_PATHS.taskpane)}"/>
        <bt:Url id="GetStarted.LearnMoreUrl" DefaultValue="${url(ADD_IN_DOCS_PATH)}"/>
      </bt:Urls>
      <bt:ShortStrings>
        <bt:String id="Functions.Namespace" DefaultValue="${SPREADSHEET_NAMESPACE}"/>
        <bt:String id="GetStarted.Title" DefaultValue="${name} market data is ready"/>
        <bt:String id="Group.Label" DefaultValue="${name}"/>
        <bt:String id="TaskpaneButton.Label" DefaultValue="${name}"/>
      </bt:ShortStrings>
      <bt:LongStrings>
        <bt:String id="GetStarted.Description" DefaultValue="${escapeXml(`Open ${SITE_NAME} on the Home tab and choose Connect, then type =${SPREADSHEET_NAMESPACE}.QUOTE("AAPL") in a cell.`)}"/>
        <bt:String id="TaskpaneButton.Tooltip" DefaultValue="${escapeXml(`Connect this workbook to your ${SITE_NAME} account and see the functions.`)}"/>
      </bt:LongStrings>
    </Resources>
  </VersionOverrides>
</OfficeApp>
`;
}
