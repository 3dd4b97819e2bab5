import { describe, expect, it } from 'vitest'
import { refusalView } from './order-refusal'

describe('a refused order as the shopper reads it', () => {
  it('lists the shop’s reasons and says the cart is back', () => {
    const view = refusalView([
      { productId: 'a', message: 'Only 5 left in stock!' },
      {
        productId: null,
        message:
          "Today's limit is 28.5 g of flower. Your orders today already hold 21 g, so this order can add up to 7.5 g.",
      },
    ])
    expect(view.title).toBe("We couldn't place your order")
    expect(view.totalChanged).toBe(false)
    expect(view.messages).toHaveLength(2)
    expect(view.advice).toMatch(/cart has been restored/)
  })

  it('says when only the taxes changed: the new total, and that nothing was charged', () => {
    const message =
      'The taxes changed since your cart was priced: this order now comes to $41.21 instead of $40.38. Check the new total and place the order again.'
    const view = refusalView([{ productId: null, code: 'total_changed', total: 41.21, message }])
    expect(view).toMatchObject({
      title: 'The total of your order changed',
      totalChanged: true,
      newTotal: 41.21,
      messages: [message],
    })
    expect(view.advice).toMatch(/^Nothing was charged and the order was not placed\./)
  })

  it('still reads well with no reasons, repeated ones or a total sent as text', () => {
    expect(refusalView(null).messages).toEqual(['The shop could not accept this order.'])
    expect(refusalView([{ message: 'Gone' }, { message: 'Gone' }]).messages).toEqual(['Gone'])
    const bare = refusalView([{ code: 'total_changed', total: '41.2' }])
    expect(bare.newTotal).toBe(41.2)
    expect(bare.messages[0]).toContain('$41.20')
  })
})
