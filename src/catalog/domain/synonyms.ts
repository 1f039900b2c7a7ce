/**
 * Search synonyms (docs/domain.md, Search), kept with the tag vocabulary (./tags.ts): words people
 * type for the catalog's own words. Data only: each group is one meaning, its first entry the word
 * the catalog writes (in product names or as a tag), the rest what people type for it. A searched
 * word equal to an entry of a group, ignoring case and full-width forms, matches any entry of the
 * group. Entries are single words (a search is split on white space). Add a group or a word here
 * and nowhere else.
 */
export const SEARCH_SYNONYMS: readonly (readonly string[])[] = [
  ['T恤', 'tshirt', 't-shirt', 'tee', 'tees', 't恤衫'],
  ['卫衣', 'hoodie', 'hoody', 'hoodies', 'sweatshirt'],
  ['长袖', 'longsleeve', 'long-sleeve'],
  ['POLO衫', 'polo', 'polos'],
  ['背心', 'tanktop', 'tank-top'],
  ['帆布袋', 'tote', 'totebag', '帆布包'],
  ['黑色', 'black', 'BLK'],
  ['白色', 'white', 'WHT'],
  ['灰色', 'grey', 'gray', 'GRY'],
  ['红色', 'red'],
  ['藏青', 'navy', 'NVY'],
  ['粉色', 'pink', 'PNK'],
  ['卡其', 'khaki', 'KHK'],
  ['包邮', 'freeshipping'],
  ['直喷', 'dtg'],
  ['烫画', 'heatpress'],
];
