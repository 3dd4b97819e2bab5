import { css } from 'styled-system/css'
import { ProductList } from './product-list'

export function MenuPage() {
  return (
    <main>
      <h1 className={css({ fontFamily: 'heading', fontSize: '4xl', fontWeight: 'bold', mb: '2' })}>
        All Products
      </h1>
      <ProductList />
    </main>
  )
}
