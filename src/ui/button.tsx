import { ark } from '@ark-ui/react/factory'
import { styled } from 'styled-system/jsx'
import { button } from 'styled-system/recipes'

/** The one button of the app: Ark's polymorphic `ark.button` styled by the button recipe. */
export const Button = styled(ark.button, button)
export const LinkButton = styled(ark.a, button)
