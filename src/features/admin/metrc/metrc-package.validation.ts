/**
 * The product form's Metrc package (docs/decisions/054-metrc-sales-export.md), as the server checks it (admin_save_product,
 * migration 20261129120100), with the same messages: the tag's shape, one of Metrc's units, and
 * the package together with the product — a tag needs its unit, a weighed unit the product's
 * weight, and merchandise has no package.
 */
import * as v from 'valibot'
import {
  METRC_TAG_MESSAGE,
  METRC_TAG_PATTERN,
  METRC_UNITS,
  normalizeMetrcTag,
  type MetrcUnit,
} from './metrc-layout'

/** The form's select holds '' for "no unit chosen" (its first option says so). */
export type MetrcUnitChoice = MetrcUnit | ''

export const METRC_UNIT_MESSAGE = "Choose the Metrc package's unit of measure (Each, Grams, …)"
export const METRC_NOT_CANNABIS_MESSAGE =
  'A product that is not cannabis is not sold from a Metrc package: clear its tag'
export const metrcWeightMessage = (unit: string) =>
  `A package counted in ${unit} needs the product's weight in grams`

export const metrcPackageSchema = v.object({
  metrc_package_tag: v.pipe(
    v.string(),
    v.transform(normalizeMetrcTag),
    v.check((tag) => tag === '' || METRC_TAG_PATTERN.test(tag), METRC_TAG_MESSAGE),
  ),
  metrc_unit: v.picklist(
    ['', ...METRC_UNITS],
    `Metrc unit of measure must be one of ${METRC_UNITS.join(', ')}`,
  ),
})

export type MetrcTogether = {
  is_cannabis: boolean
  metrc_package_tag: string
  metrc_unit: MetrcUnitChoice
  weight_grams: number | undefined
}

/** The package with the product, each message keyed by the field that fixes it. */
export function metrcPackageProblems(
  form: MetrcTogether,
): Partial<Record<'metrc_package_tag' | 'metrc_unit', string>> {
  if (form.metrc_package_tag !== '' && !form.is_cannabis)
    return { metrc_package_tag: METRC_NOT_CANNABIS_MESSAGE }
  if (form.metrc_package_tag !== '' && form.metrc_unit === '')
    return { metrc_unit: METRC_UNIT_MESSAGE }
  if (form.metrc_unit !== '' && form.metrc_unit !== 'Each' && !((form.weight_grams ?? 0) > 0))
    return { metrc_unit: metrcWeightMessage(form.metrc_unit) }
  return {}
}
