/**
 * Standard Industrial Classification: the SEC's four-digit industry codes, the SEC office that reviews each,
 * and which code each of the data set's industries files under. One table, so the SIC list, the company
 * searches, the SEC profile and the 13F industry breakdowns always name an industry the same way.
 */

/** One SIC code as the SEC lists it. */
export interface SicCode {
  sicCode: string;
  industryTitle: string;
  office: string;
}

const TECH = 'Office of Technology';
const MANUFACTURING = 'Office of Manufacturing';
const LIFE = 'Office of Life Sciences';
const FINANCE = 'Office of Finance';
const TRADE = 'Office of Trade & Services';
const ENERGY = 'Office of Energy & Transportation';
const REAL_ESTATE = 'Office of Real Estate & Construction';
const INDUSTRIAL = 'Office of Industrial Applications and Services';

/** Industry (as the data set names it) → [SIC code, the SEC's industry title, the reviewing office]. */
const BY_INDUSTRY: Readonly<Record<string, readonly [string, string, string]>> = {
  Semiconductors: ['3674', 'SEMICONDUCTORS & RELATED DEVICES', MANUFACTURING],
  'Software - Application': ['7372', 'SERVICES-PREPACKAGED SOFTWARE', TECH],
  'Software - Infrastructure': ['7372', 'SERVICES-PREPACKAGED SOFTWARE', TECH],
  'Consumer Electronics': ['3571', 'ELECTRONIC COMPUTERS', TECH],
  'Information Technology Services': ['7373', 'SERVICES-COMPUTER INTEGRATED SYSTEMS DESIGN', TECH],
  'Communication Equipment': ['3663', 'RADIO & TV BROADCASTING & COMMUNICATIONS EQUIPMENT', TECH],
  'Computer Hardware': ['3572', 'COMPUTER STORAGE DEVICES', TECH],
  'Electronic Components': ['3679', 'ELECTRONIC COMPONENTS, NEC', MANUFACTURING],
  'Semiconductor Equipment & Materials': ['3559', 'SPECIAL INDUSTRY MACHINERY, NEC', MANUFACTURING],
  'Scientific & Technical Instruments': ['3826', 'LABORATORY ANALYTICAL INSTRUMENTS', MANUFACTURING],
  'Drug Manufacturers - General': ['2834', 'PHARMACEUTICAL PREPARATIONS', LIFE],
  'Drug Manufacturers - Specialty & Generic': ['2834', 'PHARMACEUTICAL PREPARATIONS', LIFE],
  Biotechnology: ['2836', 'BIOLOGICAL PRODUCTS, (NO DIAGNOSTIC SUBSTANCES)', LIFE],
  'Medical Devices': ['3841', 'SURGICAL & MEDICAL INSTRUMENTS & APPARATUS', LIFE],
  'Medical Instruments & Supplies': ['3842', 'ORTHOPEDIC, PROSTHETIC & SURGICAL APPLIANCES & SUPPLIES', LIFE],
  'Healthcare Plans': ['6324', 'HOSPITAL & MEDICAL SERVICE PLANS', FINANCE],
  'Diagnostics & Research': ['8071', 'SERVICES-MEDICAL LABORATORIES', LIFE],
  'Medical Care Facilities': ['8062', 'SERVICES-HOSPITALS', LIFE],
  'Banks - Diversified': ['6021', 'NATIONAL COMMERCIAL BANKS', FINANCE],
  'Banks - Regional': ['6022', 'STATE COMMERCIAL BANKS', FINANCE],
  'Asset Management': ['6282', 'INVESTMENT ADVICE', FINANCE],
  'Insurance - Property & Casualty': ['6331', 'FIRE, MARINE & CASUALTY INSURANCE', FINANCE],
  'Insurance - Life': ['6311', 'LIFE INSURANCE', FINANCE],
  'Insurance - Diversified': ['6411', 'INSURANCE AGENTS, BROKERS & SERVICE', FINANCE],
  'Capital Markets': ['6211', 'SECURITY BROKERS, DEALERS & FLOTATION COMPANIES', FINANCE],
  'Financial - Credit Services': ['6199', 'FINANCE SERVICES', FINANCE],
  'Financial - Data & Stock Exchanges': [
    '6200',
    'SECURITY & COMMODITY BROKERS, DEALERS, EXCHANGES & SERVICES',
    FINANCE,
  ],
  'Specialty Retail': ['5990', 'RETAIL-RETAIL STORES, NEC', TRADE],
  'Auto - Manufacturers': ['3711', 'MOTOR VEHICLES & PASSENGER CAR BODIES', MANUFACTURING],
  Restaurants: ['5812', 'RETAIL-EATING PLACES', TRADE],
  'Apparel - Retail': ['5651', 'RETAIL-FAMILY CLOTHING STORES', TRADE],
  'Home Improvement': ['5211', 'RETAIL-LUMBER & OTHER BUILDING MATERIALS DEALERS', TRADE],
  'Travel Services': ['4700', 'TRANSPORTATION SERVICES', ENERGY],
  Leisure: ['7900', 'SERVICES-AMUSEMENT & RECREATION SERVICES', TRADE],
  'Auto - Parts': ['3714', 'MOTOR VEHICLE PARTS & ACCESSORIES', MANUFACTURING],
  'Residential Construction': ['1531', 'OPERATIVE BUILDERS', REAL_ESTATE],
  'Apparel - Manufacturers': [
    '2300',
    'APPAREL & OTHER FINISHD PRODS OF FABRICS & SIMILAR MATL',
    MANUFACTURING,
  ],
  'Discount Stores': ['5331', 'RETAIL-VARIETY STORES', TRADE],
  'Beverages - Non-Alcoholic': ['2086', 'BOTTLED & CANNED SOFT DRINKS & CARBONATED WATERS', MANUFACTURING],
  'Packaged Foods': ['2000', 'FOOD AND KINDRED PRODUCTS', MANUFACTURING],
  'Household & Personal Products': [
    '2840',
    'SOAP, DETERGENTS, CLEANG PREPARATIONS, PERFUMES, COSMETICS',
    MANUFACTURING,
  ],
  'Grocery Stores': ['5411', 'RETAIL-GROCERY STORES', TRADE],
  Tobacco: ['2111', 'CIGARETTES', MANUFACTURING],
  'Beverages - Wineries & Distilleries': ['2085', 'DISTILLED & BLENDED LIQUORS', MANUFACTURING],
  'Agricultural Farm Products': ['0100', 'AGRICULTURAL PRODUCTION-CROPS', MANUFACTURING],
  'Aerospace & Defense': ['3728', 'AIRCRAFT PARTS & AUXILIARY EQUIPMENT, NEC', MANUFACTURING],
  'Industrial - Machinery': ['3560', 'GENERAL INDUSTRIAL MACHINERY & EQUIPMENT', MANUFACTURING],
  Railroads: ['4011', 'RAILROADS, LINE-HAUL OPERATING', ENERGY],
  'Integrated Freight & Logistics': ['4513', 'AIR COURIER SERVICES', ENERGY],
  Airlines: ['4512', 'AIR TRANSPORTATION, SCHEDULED', ENERGY],
  'Engineering & Construction': [
    '1600',
    'HEAVY CONSTRUCTION OTHER THAN BLDG CONST - CONTRACTORS',
    REAL_ESTATE,
  ],
  'Waste Management': ['4953', 'REFUSE SYSTEMS', ENERGY],
  'Electrical Equipment & Parts': [
    '3600',
    'ELECTRONIC & OTHER ELECTRICAL EQUIPMENT (NO COMPUTER EQUIP)',
    MANUFACTURING,
  ],
  'Staffing & Employment Services': ['7363', 'SERVICES-HELP SUPPLY SERVICES', TRADE],
  Conglomerates: ['3990', 'MISCELLANEOUS MANUFACTURING INDUSTRIES', MANUFACTURING],
  'Oil & Gas Integrated': ['2911', 'PETROLEUM REFINING', ENERGY],
  'Oil & Gas Refining & Marketing': ['2911', 'PETROLEUM REFINING', ENERGY],
  'Oil & Gas Exploration & Production': ['1311', 'CRUDE PETROLEUM & NATURAL GAS', ENERGY],
  'Oil & Gas Midstream': ['4922', 'NATURAL GAS TRANSMISSION', ENERGY],
  'Oil & Gas Equipment & Services': ['1389', 'OIL & GAS FIELD SERVICES, NEC', ENERGY],
  Uranium: ['1090', 'MISCELLANEOUS METAL ORES', ENERGY],
  Solar: ['3674', 'SEMICONDUCTORS & RELATED DEVICES', MANUFACTURING],
  Chemicals: ['2800', 'CHEMICALS & ALLIED PRODUCTS', INDUSTRIAL],
  'Specialty Chemicals': ['2860', 'INDUSTRIAL ORGANIC CHEMICALS', INDUSTRIAL],
  'Agricultural Inputs': ['2870', 'AGRICULTURAL CHEMICALS', INDUSTRIAL],
  Gold: ['1040', 'GOLD AND SILVER ORES', ENERGY],
  Copper: ['1000', 'METAL MINING', ENERGY],
  Steel: ['3310', 'STEEL WORKS, BLAST FURNACES & ROLLING & FINISHING MILLS', MANUFACTURING],
  'Paper, Lumber & Forest Products': ['2621', 'PAPER MILLS', MANUFACTURING],
  'Construction Materials': ['3241', 'CEMENT, HYDRAULIC', MANUFACTURING],
  Aluminum: ['3334', 'PRIMARY PRODUCTION OF ALUMINUM', MANUFACTURING],
  'Internet Content & Information': ['7370', 'SERVICES-COMPUTER PROGRAMMING, DATA PROCESSING, ETC.', TECH],
  'Telecommunications Services': ['4813', 'TELEPHONE COMMUNICATIONS (NO RADIOTELEPHONE)', TECH],
  Entertainment: ['7812', 'SERVICES-MOTION PICTURE & VIDEO TAPE PRODUCTION', TRADE],
  'Advertising Agencies': ['7311', 'SERVICES-ADVERTISING AGENCIES', TRADE],
  Publishing: ['2711', 'NEWSPAPERS: PUBLISHING OR PUBLISHING & PRINTING', MANUFACTURING],
  Broadcasting: ['4833', 'TELEVISION BROADCASTING STATIONS', TECH],
  'Electronic Gaming & Multimedia': ['7372', 'SERVICES-PREPACKAGED SOFTWARE', TECH],
  'REIT - Residential': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'REIT - Industrial': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'REIT - Office': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'REIT - Retail': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'REIT - Healthcare Facilities': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'REIT - Specialty': ['6798', 'REAL ESTATE INVESTMENT TRUSTS', REAL_ESTATE],
  'Real Estate Services': ['6531', 'REAL ESTATE AGENTS & MANAGERS (FOR OTHERS)', REAL_ESTATE],
  'Real Estate - Development': ['6552', 'LAND SUBDIVIDERS & DEVELOPERS (NO CEMETERIES)', REAL_ESTATE],
  'Utilities - Regulated Electric': ['4911', 'ELECTRIC SERVICES', ENERGY],
  'Utilities - Independent Power Producers': ['4911', 'ELECTRIC SERVICES', ENERGY],
  'Utilities - Regulated Gas': ['4923', 'NATURAL GAS TRANSMISSION & DISTRIBUTION', ENERGY],
  'Utilities - Diversified': ['4931', 'ELECTRIC & OTHER SERVICES COMBINED', ENERGY],
  'Utilities - Renewable': ['4991', 'COGENERATION SERVICES & SMALL POWER PRODUCERS', ENERGY],
  'Utilities - Regulated Water': ['4941', 'WATER SUPPLY', ENERGY],
};

/** Where an industry the table does not know files: the SEC's catch-all. */
const UNCLASSIFIED: SicCode = {
  sicCode: '9995',
  industryTitle: 'NON-OPERATING ESTABLISHMENTS',
  office: TRADE,
};

/** The SIC code a company of this industry files under. */
export function sicForIndustry(industry: string): SicCode {
  const entry = BY_INDUSTRY[industry];
  return entry ? { sicCode: entry[0], industryTitle: entry[1], office: entry[2] } : UNCLASSIFIED;
}

/** Every SIC code the table uses, once, by code. */
export function sicCodes(): SicCode[] {
  const byCode = new Map<string, SicCode>();
  for (const [sicCode, industryTitle, office] of Object.values(BY_INDUSTRY))
    byCode.set(sicCode, { sicCode, industryTitle, office });
  byCode.set(UNCLASSIFIED.sicCode, UNCLASSIFIED);
  return [...byCode.values()].sort((a, b) => a.sicCode.localeCompare(b.sicCode));
}

/** The industries filing under a SIC code (for searching companies by code). */
export function industriesOfSic(sicCode: string): string[] {
  return Object.entries(BY_INDUSTRY)
    .filter(([, entry]) => entry[0] === sicCode)
    .map(([industry]) => industry);
}

/** The SEC's broad group of a SIC code, as its first digit places it. */
export function sicGroup(sicCode: string): string {
  const groups: readonly string[] = [
    'Agriculture, Forestry and Fishing',
    'Mining',
    'Manufacturing',
    'Manufacturing',
    'Transportation, Communications, Electric, Gas and Sanitary Services',
    'Retail Trade',
    'Finance, Insurance and Real Estate',
    'Services',
    'Services',
    'Public Administration',
  ];
  if (sicCode.startsWith('1') && Number(sicCode) >= 1500) return 'Construction';
  if (sicCode.startsWith('5') && Number(sicCode) < 5200) return 'Wholesale Trade';
  return groups[Number(sicCode.charAt(0))] ?? 'Services';
}
